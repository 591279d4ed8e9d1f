import { describe, expect, it } from 'vitest';
import { recordedCall } from './fixtures/attemptSettings.ts';
import { afterAttempt, attemptBegun, attemptEntry, firstProgress } from './callProgress.ts';
import type { AttemptResult } from './recordedCall.ts';

const retry = {
  max: 2,
  interval: 1000,
  backoff: 2,
  maxInterval: 60_000,
  on: [500, 'timeout' as const],
};
const call = recordedCall('https://shop.example/{{secret:shop}}/charge', { method: 'POST', retry });
const answer = (status: number): AttemptResult => ({
  outcome: { ok: status === 200, status, headers: {}, body: { status } },
  failure: status === 200 ? undefined : status,
  sent: true,
});

describe('a call from first attempt to outcome (docs/format.md#calls)', () => {
  it('is due at once, counts each attempt as it begins, and waits the backoff between failures', () => {
    let p = firstProgress(4, 1000);
    expect(p).toEqual({ seq: 4, attempts: 0, due: 1000 });
    p = attemptBegun(p);
    expect(p).toEqual({ seq: 4, attempts: 1, due: null });
    const again = afterAttempt(call, p, answer(500), 2000);
    expect(again).toEqual({ progress: { seq: 4, attempts: 1, due: 3000, last: { status: 500 } } });
    p = attemptBegun((again as { progress: typeof p }).progress);
    expect(afterAttempt(call, p, answer(500), 3000)).toEqual({
      progress: { seq: 4, attempts: 2, due: 5000, last: { status: 500 } },
    });
  });

  it('fires with the outcome, and the attempts made, on success or once the retries run out', () => {
    const ok = afterAttempt(call, { seq: 1, attempts: 2, due: null }, answer(200), 0);
    expect(ok).toEqual({
      outcome: { ok: true, status: 200, headers: {}, body: { status: 200 }, attempts: 2 },
    });
    const spent = afterAttempt(call, { seq: 1, attempts: 3, due: null }, answer(500), 0);
    expect(spent).toEqual({
      outcome: { ok: false, status: 500, headers: {}, body: { status: 500 }, attempts: 3 },
    });
    const unlisted = afterAttempt(call, { seq: 1, attempts: 1, due: null }, answer(404), 0);
    expect(unlisted).toMatchObject({ outcome: { status: 404, attempts: 1 } });
  });

  it('journals the method, the recorded URL, status or error and time taken, never a header', () => {
    const timeout: AttemptResult = {
      outcome: { ok: false, status: 0, headers: {}, body: null, error: 'timeout' },
      failure: 'timeout',
      sent: true,
    };
    expect(attemptEntry(call, 2, timeout, 10_000)).toEqual({
      attempt: 2,
      method: 'POST',
      url: 'https://shop.example/{{secret:shop}}/charge',
      status: 0,
      error: 'timeout',
      ms: 10_000,
    });
  });
});
