import { answerResult } from './readAnswer.ts';
import type { AttemptResult, RecordedCall } from './recordedCall.ts';
import { parseRetryAfter } from './retryPolicy.ts';

/** An answer a scenario gives an attempt instead of the network (docs/format.md#scenarios). */
export type ScriptedAnswer =
  | { status: number; body?: unknown; headers?: Record<string, string>; after?: number }
  | { error: 'network' | 'timeout'; after?: number };

/**
 * The result a scripted answer gives an attempt of `call`, and how long after the attempt began,
 * on the virtual clock, it comes. An answer later than the call's `timeout` is a timeout at the
 * timeout, as a server that slow would be. Pure: the same answer always gives the same result.
 */
export function scriptedAttempt(
  call: RecordedCall,
  answer: ScriptedAnswer,
  now: number,
): { result: AttemptResult; after: number } {
  const after = Math.max(0, answer.after ?? 0);
  // A timeout is known at the call's timeout, whenever the answer would have come.
  if (('error' in answer && answer.error === 'timeout') || after > call.timeout) {
    return { result: noAnswer('timeout', 'timeout'), after: call.timeout };
  }
  if ('error' in answer) {
    return {
      result: noAnswer('network: the scenario answered with a network error', 'network'),
      after,
    };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {}))
    headers[name.toLowerCase()] = value;
  const body = answer.body === undefined ? null : answer.body;
  const retryAfter = parseRetryAfter(headers['retry-after'], now + after);
  return {
    result: answerResult(answer.status, headers, { ok: true, value: body }, retryAfter),
    after,
  };
}

function noAnswer(error: string, failure: 'network' | 'timeout'): AttemptResult {
  return { outcome: { ok: false, status: 0, headers: {}, body: null, error }, failure, sent: true };
}
