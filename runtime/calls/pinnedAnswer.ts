import type { Pin } from '../../shared/pins.ts';
import type { CallWait } from './callSender.ts';
import { answerResult } from './readAnswer.ts';
import type { AttemptResult } from './recordedCall.ts';
import { parseRetryAfter } from './retryPolicy.ts';

/**
 * Where the pins of calls come from (docs/format.md#pinned-answers): the workspace's, in the
 * browser; a `flows/1` file's, in `flow simulate`. Asked as each attempt is due, so a pin set or
 * removed meanwhile (in another tab too) applies to the next attempt.
 */
export interface PinSource {
  pinFor(at: { flow: string; node: string; trigger: string }): Promise<Pin | undefined>;
}

/** Pins held in memory: a file's, or a test's. */
export function pinsFrom(pins: readonly Pin[]): PinSource {
  const byKey = new Map(pins.map((p) => [JSON.stringify([p.flow, p.node, p.trigger]), p]));
  return {
    pinFor: ({ flow, node, trigger }) =>
      Promise.resolve(byKey.get(JSON.stringify([flow, node, trigger]))),
  };
}

/**
 * The result a pin gives an attempt of `wait`, or undefined when the call has no pin: the answer
 * read as a server's answer with that status, headers and body would be (a 2xx succeeds, any
 * other status fails as that status, for `retry.on`), marked `pinned`, and nothing sent.
 */
export async function pinnedAttempt(
  pins: PinSource | undefined,
  wait: CallWait,
  now: number,
): Promise<AttemptResult | undefined> {
  if (!pins || wait.flow === undefined || wait.local === undefined) return undefined;
  const pin = await pins.pinFor({ flow: wait.flow, node: wait.local, trigger: wait.call.trigger });
  if (!pin) return undefined;
  const headers = { ...pin.headers };
  const result = answerResult(
    pin.status,
    headers,
    { ok: true, value: pin.body },
    parseRetryAfter(headers['retry-after'], now),
  );
  return { ...result, sent: false, pinned: true };
}
