import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OriginLimiter } from '../../runtime/calls/originLimiter.ts';
import { sendAttempt } from '../../runtime/calls/sendAttempt.ts';
import { startTestServer, type TestServer } from '../../runtime/calls/fixtures/testServer.ts';
import { callOptionsFor, type LiveCallOptions } from './callOptions.ts';

let server: TestServer;
beforeAll(async () => void (server = await startTestServer()));
afterAll(() => server.close());

let n = 0;
const opened: LiveCallOptions[] = [];
async function open(dbName = `call-options-${n++}`) {
  const options = await callOptionsFor(dbName);
  opened.push(options);
  return options;
}
afterEach(() => opened.splice(0).forEach((o) => o.close()));

const call = (path: string) => ({
  trigger: 'pay',
  method: 'GET',
  url: `${server.origin}${path}`,
  headers: { Authorization: 'Bearer {{secret:shop}}' },
  timeout: 30_000,
});

describe("the runtime worker's call options (the supervisor's `calls`)", () => {
  it('rule: in the browser, with a bound fetch, and an empty allowlist at first', async () => {
    const options = await open();
    expect(options.inBrowser).toBe(true);
    expect(options.allow.allows(server.origin)).toBe(false);
    const attempt = await sendAttempt(
      { ...call('/json'), headers: {} },
      {
        ...options,
        limiter: new OriginLimiter(),
        key: 'k-1',
      },
    );
    expect(attempt.outcome.error).toBe('refused: origin not allowed');
    expect(server.countByKey('k-1')).toBe(0);
  });

  it('rule: a change of the settings applies to the next attempt, with no reopening', async () => {
    const options = await open();
    const settings = { ...options, limiter: new OriginLimiter() };
    await options.allowOrigin(server.origin);
    const missing = await sendAttempt(call('/echo'), { ...settings, key: 'k-2' });
    expect(missing.outcome.error).toBe('refused: secret "shop" is not set');
    await options.setSecret('shop', 'tok-123456');
    const sent = await sendAttempt(call('/echo'), { ...settings, key: 'k-3' });
    expect(sent.outcome.status).toBe(200);
    // The server saw the value; the answer holds the placeholder again.
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer tok-123456');
    expect(JSON.stringify(sent.outcome)).not.toContain('tok-123456');
    await options.removeOrigin(server.origin);
    expect(options.allow.allows(server.origin)).toBe(false);
  });

  it("rule: another tab's change reaches this runtime without a reload", async () => {
    const dbName = `call-options-${n++}`;
    const mine = await open(dbName);
    const theirs = await open(dbName);
    await theirs.allowOrigin('https://shop.example');
    await theirs.setSecret('shop', 'from-the-other-tab');
    await expect.poll(() => mine.allow.allows('https://shop.example')).toBe(true);
    await expect.poll(() => mine.secrets.get('shop')).toBe('from-the-other-tab');
  });

  it('rule: a refused write changes nothing and says why', async () => {
    const options = await open();
    expect(await options.allowOrigin('*')).toMatchObject({ ok: false });
    expect(options.allow.allows('https://anything.example')).toBe(false);
    expect(await options.setSecret('shop', 'abc')).toMatchObject({ ok: false });
    expect(options.secrets.get('shop')).toBeUndefined();
  });
});
