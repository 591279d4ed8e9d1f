import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { startTestServer, type TestServer } from '../../runtime/calls/fixtures/testServer.ts';
import { openWorkerRuntime } from './workerRuntime.ts';

let server: TestServer;
beforeAll(async () => void (server = await startTestServer()));
afterAll(() => server.close());

let dbs = 0;
const open = () =>
  openWorkerRuntime(
    {
      dbName: `worker-calls-${++dbs}`,
      seed: [],
      clock: { mode: 'virtual', virtual: 0 },
      pace: 'page',
      now: 0,
    },
    () => {},
    new InProcessLocks(),
  );

describe("the runtime worker's call settings and test request", () => {
  it('rule: the page sets a secret and allows an origin; it reads back names, never a value', async () => {
    const runtime = await open();
    expect(await runtime.callSettings()).toEqual({ origins: [], secrets: [] });
    expect(await runtime.setSecret('shop', 'worker-held-value')).toEqual({
      ok: true,
      value: 'shop',
    });
    expect(await runtime.allowOrigin(`${server.origin}/`)).toEqual({
      ok: true,
      value: server.origin,
    });
    const view = await runtime.callSettings();
    expect(view).toEqual({ origins: [server.origin], secrets: ['shop'] });
    expect(JSON.stringify(view)).not.toContain('worker-held-value');
    runtime.close();
  });

  it('rule: a test request goes with the settings as they are now, and starts no process', async () => {
    const runtime = await open();
    const trigger = {
      id: 'charged',
      call: {
        url: `'${server.origin}/echo'`,
        headers: { Authorization: "'Bearer ' & $secret('shop')" },
      },
    };
    expect(await runtime.testRequest(trigger)).toMatchObject({
      kind: 'answer',
      error: 'refused: secret "shop" is not set',
    });
    await runtime.setSecret('shop', 'worker-held-value');
    expect(await runtime.testRequest(trigger)).toMatchObject({
      kind: 'answer',
      error: 'refused: origin not allowed',
      sent: false,
    });
    await runtime.allowOrigin(server.origin);
    const shown = await runtime.testRequest(trigger);
    expect(shown).toMatchObject({ kind: 'answer', ok: true, status: 200 });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer worker-held-value');
    expect(JSON.stringify(shown)).not.toContain('worker-held-value');
    expect((await runtime.processCounts()).total).toBe(0);
    runtime.close();
  });
});
