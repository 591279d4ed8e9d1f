import { describe, expect, it } from 'vitest';
import type { AttemptResult, CallRetry } from './recordedCall.ts';
import { nextDelay, parseRetryAfter } from './retryPolicy.ts';

const retry: CallRetry = {
  max: 4,
  interval: 1000,
  backoff: 2,
  maxInterval: 60_000,
  on: [429, 500, 'network', 'timeout'],
};
const failed = (failure: AttemptResult['failure'], retryAfter?: number): AttemptResult => ({
  outcome: {
    ok: false,
    status: typeof failure === 'number' ? failure : 0,
    headers: {},
    body: null,
  },
  failure,
  retryAfter,
  sent: true,
});

describe('retry policy (docs/format.md#calls)', () => {
  it('waits interval × backoff^(n−1) after attempt n, capped at maxInterval', () => {
    expect([1, 2, 3, 4].map((n) => nextDelay(retry, n, failed(500)))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    const capped = { ...retry, max: 10, maxInterval: 5000 };
    expect(nextDelay(capped, 6, failed(500))).toBe(5000);
  });

  it('makes at most max more attempts after the first', () => {
    expect(nextDelay(retry, 4, failed(500))).toBe(8000);
    expect(nextDelay(retry, 5, failed(500))).toBeUndefined();
    expect(nextDelay({ ...retry, max: 0 }, 1, failed(500))).toBeUndefined();
  });

  it('retries only failures listed in on, and never without a policy', () => {
    expect(nextDelay(retry, 1, failed(404))).toBeUndefined();
    expect(nextDelay(retry, 1, failed(undefined))).toBeUndefined();
    expect(nextDelay(retry, 1, failed('network'))).toBe(1000);
    expect(nextDelay(retry, 1, failed('timeout'))).toBe(1000);
    expect(nextDelay(undefined, 1, failed(500))).toBeUndefined();
  });

  it('honours Retry-After in place of the backoff, within maxInterval', () => {
    expect(nextDelay(retry, 1, failed(429, 7000))).toBe(7000);
    expect(nextDelay(retry, 1, failed(429, 3_600_000))).toBe(60_000);
  });

  it('reads Retry-After as seconds or an HTTP-date, and ignores anything else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
