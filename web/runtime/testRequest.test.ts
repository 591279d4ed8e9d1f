import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOrigins } from '../../runtime/calls/originAllowlist.ts';
import { OriginLimiter } from '../../runtime/calls/originLimiter.ts';
import { noSecrets, secretsFrom } from '../../runtime/calls/secrets.ts';
import { startTestServer, type TestServer } from '../../runtime/calls/fixtures/testServer.ts';
import type { Call, Trigger } from '../../shared/schema.ts';
import { MASK, SHOWN_BODY_LIMIT, shownBody, testRequest } from './testRequest.ts';

let server: TestServer;
beforeAll(async () => void (server = await startTestServer()));
afterAll(() => server.close());

const trigger = (call: Partial<Call> & { url: string }): Trigger & { call: Call } => ({
  id: 'charged',
  into: 'payment',
  call: call as Call,
});
let clock = 0;
const settings = (over: Partial<Parameters<typeof testRequest>[2]> = {}) => ({
  secrets: noSecrets,
  allow: allowOrigins([server.origin]),
  limiter: new OriginLimiter(),
  // Each reading of the clock is 5 ms later: the duration shown is the attempt's own.
  now: () => (clock += 5),
  ...over,
});

describe('a test request (the designer, docs/format.md#calls)', () => {
  it('rule: sends ONE attempt of the request as the engine records it, and shows the answer', async () => {
    const before = server.requests.length;
    const shown = await testRequest(
      trigger({ method: 'POST', url: `'${server.origin}/echo'`, body: "{ 'n': 1 + 1 }" }),
      {},
      settings(),
    );
    expect(server.requests.length).toBe(before + 1);
    const seen = server.requests.at(-1)!;
    expect(seen.body).toBe('{"n":2}');
    // A key of its own, never one of a process's wait.
    expect(seen.headers['idempotency-key']).toMatch(/^wakeflow-test-/);
    expect(shown).toMatchObject({
      kind: 'answer',
      ok: true,
      status: 200,
      durationMs: 5,
      sent: true,
    });
    if (shown.kind !== 'answer') return;
    expect(shown.headers).toContainEqual(['content-type', 'application/json']);
    expect(JSON.parse(shown.body)).toMatchObject({ method: 'POST', body: '{"n":2}' });
    expect(shown.body).toContain('\n  "method"');
  });

  it('rule: evaluated against the context given (empty for the designer): paths that are not there are nothing', async () => {
    const shown = await testRequest(
      trigger({ url: `'${server.origin}/status/' & (order.id ? order.id : '404')` }),
      {},
      settings(),
    );
    expect(shown).toMatchObject({ kind: 'answer', ok: false, status: 404 });
  });

  it('rule: a secret is sent and masked wherever the answer shows it', async () => {
    const shown = await testRequest(
      trigger({
        url: `'${server.origin}/echo'`,
        headers: { Authorization: "'Bearer ' & $secret('shop')" },
      }),
      {},
      settings({ secrets: secretsFrom({ shop: 'very-secret-token' }) }),
    );
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer very-secret-token');
    expect(JSON.stringify(shown)).not.toContain('very-secret-token');
    expect(shown.kind === 'answer' && shown.request.headers.Authorization).toBe(`Bearer ${MASK}`);
    expect(shown.kind === 'answer' && shown.body).toContain(`Bearer ${MASK}`);
  });

  it('rule: an origin not allowed is refused before sending, as for a process', async () => {
    const before = server.requests.length;
    const shown = await testRequest(
      trigger({ url: `'${server.origin}/json'` }),
      {},
      settings({ allow: allowOrigins([]) }),
    );
    expect(shown).toMatchObject({
      kind: 'answer',
      sent: false,
      error: 'refused: origin not allowed',
    });
    expect(server.requests.length).toBe(before);
  });

  it('rule: an expression that fails, or a URL that is not http(s), is a problem naming the field', async () => {
    expect(
      await testRequest(trigger({ url: "'https://x.example/' & $nope()" }), {}, settings()),
    ).toMatchObject({ kind: 'problem', message: expect.stringMatching(/^url: /) });
    expect(await testRequest(trigger({ url: "'file:///etc/passwd'" }), {}, settings())).toEqual({
      kind: 'problem',
      message: expect.stringContaining('is not an http:// or https:// URL'),
    });
    expect(
      await testRequest(trigger({ url: 42 as unknown as string }), {}, settings()),
    ).toMatchObject({ kind: 'problem' });
  });

  it('rule: a huge answer is bounded by the sender; the body shown is cut at its own bound', async () => {
    const huge = await testRequest(trigger({ url: `'${server.origin}/huge'` }), {}, settings());
    expect(huge).toMatchObject({
      kind: 'answer',
      ok: false,
      error: expect.stringContaining('too large'),
    });
    const big = shownBody({ list: Array.from({ length: 10_000 }, (_, i) => i) });
    expect(big.truncated).toBe(true);
    expect(big.text).toHaveLength(SHOWN_BODY_LIMIT);
    expect(shownBody('plain words')).toEqual({ text: 'plain words', truncated: false });
    expect(shownBody(null)).toEqual({ text: '', truncated: false });
  });
});
