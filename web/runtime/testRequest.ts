import { CALL_BINDINGS } from '../../runtime/expr/callBindings.ts';
import { evaluate } from '../../runtime/expr/evaluate.ts';
import { callExpressions, recordCall } from '../../runtime/engine/recordCall.ts';
import type { OriginAllowlist } from '../../runtime/calls/originAllowlist.ts';
import type { OriginLimiter } from '../../runtime/calls/originLimiter.ts';
import type { SecretSource } from '../../runtime/calls/secrets.ts';
import { sendAttempt } from '../../runtime/calls/sendAttempt.ts';
import type { Call, Trigger } from '../../shared/schema.ts';
import { pinnableAnswer, type Pin } from '../../shared/pins.ts';

/** The most of an answer's body the panel is sent and shows, in characters. */
export const SHOWN_BODY_LIMIT = 20_000;

/** What a test request shows: the request sent and its answer, secrets masked everywhere. */
export type TestRequestResult =
  | {
      kind: 'answer';
      request: { method: string; url: string; headers: Record<string, string>; body?: string };
      ok: boolean;
      /** 0 when no answer came. */
      status: number;
      durationMs: number;
      headers: [string, string][];
      /** Pretty JSON, or the text as it came; at most SHOWN_BODY_LIMIT characters. */
      body: string;
      bodyTruncated: boolean;
      /** A refusal, a network error (in a browser, a CORS refusal), a timeout, a bad answer. */
      error?: string;
      /** Whether anything was sent at all (false for a refusal before sending). */
      sent: boolean;
      /**
       * The answer as a pin would keep it (docs/format.md#pinned-answers), scrubbed of every
       * secret value sent; absent when nothing answered or the answer is too large to pin.
       */
      pinnable?: Pick<Pin, 'status' | 'headers' | 'body'>;
    }
  | { kind: 'problem'; message: string };

export interface TestRequestSettings {
  secrets: SecretSource;
  allow: OriginAllowlist;
  limiter: OriginLimiter;
  fetch?: typeof fetch;
  inBrowser?: boolean;
  /** Milliseconds, to time the attempt (performance.now in the worker). */
  now: () => number;
}

// A placeholder as the engine records it and the sender scrubs an answer back to.
const PLACEHOLDER = /\{\{secret:[A-Za-z0-9_.-]+\}\}/g;
/** What stands for a secret wherever a test request shows one. */
export const MASK = '••••';
const mask = (text: string) => text.replace(PLACEHOLDER, MASK);

/**
 * Sends ONE attempt of a call trigger as the designer wrote it, without any process: its
 * expressions are evaluated against `context` (the designer's choice: docs/decisions.md, "A test
 * request runs against an empty context"), the request is made as the engine records it, and it
 * goes through the same sender, allowlist and secrets as a process's attempts. Nothing is
 * stored or journaled. Never throws for what the flow or the server does.
 */
export async function testRequest(
  trigger: Trigger & { call: Call },
  context: unknown,
  settings: TestRequestSettings,
): Promise<TestRequestResult> {
  // A cache owner of this request's own: expressions compile once for it and are then let go.
  const owner = {};
  const values: unknown[] = [];
  for (const { field, text } of callExpressions(trigger.call)) {
    if (typeof text !== 'string')
      return { kind: 'problem', message: `${field}: not an expression` };
    const result = await evaluate(owner, text, context, undefined, CALL_BINDINGS);
    if (!result.ok) return { kind: 'problem', message: `${field}: ${result.error}` };
    values.push(result.value);
  }
  const recorded = recordCall(trigger, values);
  if (!recorded.ok) return { kind: 'problem', message: recorded.error };
  const call = recorded.call;

  const started = settings.now();
  const result = await sendAttempt(call, {
    secrets: settings.secrets,
    allow: settings.allow,
    limiter: settings.limiter,
    // A key of its own, so a server never takes a test for an attempt of a process's wait.
    key: `wakeflow-test-${crypto.randomUUID()}`,
    fetch: settings.fetch,
    inBrowser: settings.inBrowser,
  });
  const durationMs = Math.max(0, Math.round(settings.now() - started));
  const { outcome } = result;
  const body = shownBody(outcome.body);
  const pinnable = result.sent ? pinnableAnswer(outcome) : undefined;
  return {
    kind: 'answer',
    request: {
      method: call.method,
      url: mask(call.url),
      headers: Object.fromEntries(Object.entries(call.headers).map(([k, v]) => [k, mask(v)])),
      ...(call.body === undefined ? {} : { body: mask(JSON.stringify(call.body, null, 2)) }),
    },
    ok: outcome.ok,
    status: outcome.status,
    durationMs,
    headers: Object.entries(outcome.headers).map(([k, v]) => [k, mask(v)]),
    body: body.text,
    bodyTruncated: body.truncated,
    ...(outcome.error === undefined ? {} : { error: mask(outcome.error) }),
    sent: result.sent,
    ...(pinnable ? { pinnable } : {}),
  };
}

/** An answer's body as the panel shows it: JSON pretty, text as is, masked, bounded. */
export function shownBody(body: unknown): { text: string; truncated: boolean } {
  const text = mask(
    body === null || body === undefined
      ? ''
      : typeof body === 'string'
        ? body
        : JSON.stringify(body, null, 2),
  );
  return text.length > SHOWN_BODY_LIMIT
    ? { text: text.slice(0, SHOWN_BODY_LIMIT), truncated: true }
    : { text, truncated: false };
}
