import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { attemptSettings, manualTimer, recordedCall } from './fixtures/attemptSettings.ts';
import { startTestServer, type TestServer } from './fixtures/testServer.ts';
import { allowOrigins } from './originAllowlist.ts';
import { OriginLimiter } from './originLimiter.ts';
import { sendAttempt } from './sendAttempt.ts';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());
beforeEach(() => void server.requests.splice(0));

const send = (path: string, more: Parameters<typeof recordedCall>[1] = {}, settings = {}) =>
  sendAttempt(recordedCall(server.origin + path, more), attemptSettings(server.origin, settings));

describe('an attempt against a real server (docs/format.md#calls)', () => {
  it('sends the Idempotency-Key and gives a JSON answer parsed, with header names in lower case', async () => {
    const result = await send('/json');
    expect(result.outcome).toMatchObject({
      ok: true,
      status: 200,
      body: { ok: true, path: '/json' },
    });
    expect(result.outcome.headers['content-type']).toBe('application/json');
    expect(result.failure).toBeUndefined();
    expect(server.countByKey('wakeflow-p1-3-pay-g')).toBe(1);
  });

  it('sends the body as JSON, fills secrets at send time, and scrubs them out of an echo', async () => {
    const result = await send('/echo', {
      method: 'POST',
      headers: { Authorization: 'Bearer {{secret:shop}}', 'Idempotency-Key': 'mine' },
      body: { amount: 12, note: 'for {{secret:shop}}' },
    });
    const seen = server.requests[0]!;
    expect(seen.headers.authorization).toBe('Bearer s3cret-token');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['idempotency-key']).toBe('wakeflow-p1-3-pay-g');
    expect(JSON.parse(seen.body)).toEqual({ amount: 12, note: 'for s3cret-token' });
    expect(JSON.stringify(result.outcome)).not.toContain('s3cret-token');
    expect(result.outcome.body).toMatchObject({
      headers: { authorization: 'Bearer {{secret:shop}}' },
    });
  });

  it('gives text for an answer that does not say JSON', async () => {
    const { outcome } = await send('/text');
    expect(outcome).toMatchObject({ ok: true, status: 200, body: 'plain words' });
    expect(outcome.headers['x-served-by']).toBe('test');
  });

  it('fails a 500 as that status, and a 429 with its Retry-After', async () => {
    const failed = await send('/status/500');
    expect(failed).toMatchObject({
      outcome: { ok: false, status: 500, body: { status: 500 } },
      failure: 500,
    });
    expect(failed.outcome.error).toBeUndefined();
    const limited = await send('/retry-after/5');
    expect(limited).toMatchObject({
      outcome: { ok: false, status: 429 },
      failure: 429,
      retryAfter: 5000,
    });
  });

  it('times out an answer that does not come within the call timeout', async () => {
    const timer = manualTimer();
    const pending = send('/slow', { timeout: 10_000 }, { startTimer: timer.start });
    await server.slowHeld(1);
    timer.fire();
    const result = await pending;
    expect(timer.started).toEqual([10_000]);
    expect(result).toMatchObject({
      outcome: { ok: false, status: 0, error: 'timeout' },
      failure: 'timeout',
    });
    server.releaseSlow();
  });

  it('fails an answer over the value limit as "too large", without reading it all', async () => {
    const { outcome, failure } = await send('/huge');
    expect(outcome).toEqual({
      ok: false,
      status: 200,
      headers: expect.any(Object),
      body: null,
      error: 'too large',
    });
    expect(failure).toBeUndefined();
  });

  it('fails an answer that says JSON and is not, keeping its text', async () => {
    const { outcome, failure } = await send('/not-json');
    expect(outcome).toMatchObject({ ok: false, status: 200, body: '{"unclosed": ' });
    expect(outcome.error).toMatch(
      /^malformed: the answer says application\/json but is not JSON \(line 1/,
    );
    expect(failure).toBeUndefined();
  });

  it('fails a dropped connection as a network error', async () => {
    const { outcome, failure } = await send('/drop');
    expect(outcome).toMatchObject({ ok: false, status: 0, body: null });
    expect(outcome.error).toMatch(/^network: /);
    expect(failure).toBe('network');
  });

  it('does not follow a redirect, which could lead to an origin not allowed', async () => {
    const { outcome } = await send('/redirect');
    expect(outcome).toMatchObject({
      ok: false,
      status: 302,
      headers: { location: 'http://127.0.0.2:9/elsewhere' },
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/redirect']);
  });
});

describe('requests refused before anything is sent', () => {
  const refusals: [string, Parameters<typeof recordedCall>[1] | undefined, string, string?][] = [
    [
      'an origin not on the allowlist',
      undefined,
      'refused: origin not allowed',
      'http://127.0.0.1:1/x',
    ],
    [
      'a javascript: URL',
      undefined,
      'refused: "javascript:alert(1)" is not an http(s) URL',
      'javascript:alert(1)',
    ],
    [
      'a file: URL',
      undefined,
      'refused: "file:///etc/passwd" is not an http(s) URL',
      'file:///etc/passwd',
    ],
    [
      'text that is no URL',
      undefined,
      'refused: "shop/orders" is not an http(s) URL',
      'shop/orders',
    ],
    [
      'a secret that is not set',
      { headers: { a: '{{secret:gone}}' } },
      'refused: secret "gone" is not set',
    ],
    [
      'a header value with CR/LF',
      { headers: { 'X-A': 'v\r\nX-Injected: 1' } },
      'refused: header "X-A" holds a line break or a control character',
    ],
    [
      'a header name that is not a token',
      { headers: { 'Bad Name': 'v' } },
      'refused: "Bad Name" is not a header name',
    ],
    ['a GET with a body', { body: { a: 1 } }, 'refused: a GET request cannot carry a body'],
    [
      'an unknown method',
      { method: 'TRACE' },
      'refused: method "TRACE" is not GET, POST, PUT, PATCH or DELETE',
    ],
  ];
  it.each(refusals)('refuses %s', async (_what, more, error, url) => {
    const call = recordedCall(url ?? server.origin + '/json', more);
    const result = await sendAttempt(call, attemptSettings(server.origin));
    expect(result).toEqual({
      outcome: { ok: false, status: 0, headers: {}, body: null, error },
      failure: undefined,
      sent: false,
    });
    expect(server.requests).toEqual([]);
  });

  it('names a bad URL by its recorded text, never with the secret filled in', async () => {
    const call = recordedCall('{{secret:shop}}', {});
    const { outcome } = await sendAttempt(call, attemptSettings(server.origin));
    expect(outcome.error).toBe('refused: "{{secret:shop}}" is not an http(s) URL');
  });

  it('refuses an allowed origin written with credentials in the URL', async () => {
    const url = server.origin.replace('http://', 'http://user:pw@') + '/json';
    const { outcome } = await sendAttempt(recordedCall(url), attemptSettings(server.origin));
    expect(outcome.error).toBe(
      'refused: the URL holds a user name or password; send credentials in a header',
    );
  });
});

describe('in flight', () => {
  it('sends at most the bound of requests to one origin at once, the rest in turn', async () => {
    const limiter = new OriginLimiter(2);
    const pending = [1, 2, 3, 4, 5].map(() => send('/slow', {}, { limiter }));
    await server.slowHeld(2);
    expect(limiter.load(server.origin)).toEqual({ active: 2, waiting: 3 });
    expect(server.slowWaiting()).toBe(2);
    server.releaseSlow();
    await server.slowHeld(2);
    server.releaseSlow();
    await server.slowHeld(1);
    server.releaseSlow();
    const results = await Promise.all(pending);
    expect(results.every((r) => r.outcome.ok)).toBe(true);
    expect(limiter.load(server.origin)).toEqual({ active: 0, waiting: 0 });
  });

  it('ends with a rejection when its signal aborts, and frees its turn', async () => {
    const limiter = new OriginLimiter(1);
    const abort = new AbortController();
    const pending = send('/slow', {}, { limiter, signal: abort.signal });
    await server.slowHeld(1);
    abort.abort(new Error('wait gone'));
    await expect(pending).rejects.toThrow('wait gone');
    expect(limiter.load(server.origin)).toEqual({ active: 0, waiting: 0 });
    server.releaseSlow();
  });

  it('says, in a page, that a network error may be a CORS refusal and what to do', async () => {
    const refusing = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    const call = recordedCall('https://api.example/x');
    const settings = attemptSettings('https://api.example', { fetch: refusing, inBrowser: true });
    const { outcome, failure } = await sendAttempt(call, settings);
    expect(outcome.error).toBe(
      "network: Failed to fetch. In a browser this is also how a server that does not allow this page's origin (CORS) is refused: allow the origin on that server, pin a response in a scenario, or run the flow on Restate",
    );
    expect(failure).toBe('network');
  });

  it('scrubs a secret from a network error that quotes the URL it was in', async () => {
    // A cause that names the URL sent, as a resolver's or a proxy's message may.
    const failing = ((url: string) =>
      Promise.reject(
        new TypeError('fetch failed', { cause: new Error(`cannot reach ${url}`) }),
      )) as unknown as typeof fetch;
    const call = recordedCall('https://api.example/x?token={{secret:shop}}');
    const { outcome } = await sendAttempt(
      call,
      attemptSettings('https://api.example', { fetch: failing }),
    );
    expect(outcome.error).toBe(
      'network: fetch failed (cannot reach https://api.example/x?token={{secret:shop}})',
    );
  });

  it('allows every origin with "*" and refuses a list entry that is not an origin', () => {
    expect(allowOrigins(['*']).allows('https://any.example')).toBe(true);
    expect(allowOrigins(['https://Shop.example:443/path']).allows('https://shop.example')).toBe(
      true,
    );
    expect(() => allowOrigins(['ftp://x'])).toThrow(
      '"ftp://x" is not an http(s) origin such as https://shop.example',
    );
  });
});
