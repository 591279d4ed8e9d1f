import { describe, expect, it } from 'vitest';
import { recordedCall } from './fixtures/attemptSettings.ts';
import { MAX_ANSWER_BYTES } from './readAnswer.ts';
import { scriptedAttempt } from './scriptedAnswer.ts';

const call = recordedCall('https://shop.example/x', { timeout: 10_000 });

describe("a scenario's answers to attempts (docs/format.md#scenarios)", () => {
  it('answers with the status, body and headers given, after the time given', () => {
    const { result, after } = scriptedAttempt(
      call,
      { status: 200, body: { id: 7 }, headers: { 'X-Id': '7' }, after: 2000 },
      0,
    );
    expect(after).toBe(2000);
    expect(result).toEqual({
      outcome: { ok: true, status: 200, headers: { 'x-id': '7' }, body: { id: 7 } },
      failure: undefined,
      sent: true,
    });
  });

  it('fails a non-2xx status as that status, honouring its Retry-After', () => {
    const { result } = scriptedAttempt(call, { status: 429, headers: { 'Retry-After': '30' } }, 0);
    expect(result).toMatchObject({
      outcome: { ok: false, status: 429, body: null },
      failure: 429,
      retryAfter: 30_000,
    });
  });

  it('times out at the call timeout an answer later than it, and a timeout error too', () => {
    expect(scriptedAttempt(call, { status: 200, after: 10_001 }, 0)).toMatchObject({
      result: { outcome: { status: 0, error: 'timeout' }, failure: 'timeout' },
      after: 10_000,
    });
    expect(scriptedAttempt(call, { status: 200, after: 10_000 }, 0).result.outcome.ok).toBe(true);
    expect(scriptedAttempt(call, { error: 'timeout' }, 0).after).toBe(10_000);
  });

  it('gives a network error at once, or after the time given', () => {
    expect(scriptedAttempt(call, { error: 'network', after: 500 }, 0)).toMatchObject({
      result: {
        outcome: { status: 0, error: 'network: the scenario answered with a network error' },
        failure: 'network',
      },
      after: 500,
    });
  });

  it('fails a body over the value limit as "too large", as a server\'s would', () => {
    const { result } = scriptedAttempt(
      call,
      { status: 200, body: 'x'.repeat(MAX_ANSWER_BYTES) },
      0,
    );
    expect(result.outcome).toMatchObject({
      ok: false,
      status: 200,
      body: null,
      error: 'too large',
    });
  });
});
