import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { startTestServer, type TestServer } from '../../runtime/calls/fixtures/testServer.ts';
import type { Flow } from '../../shared/schema.ts';
import { openWorkerRuntime } from './workerRuntime.ts';

let server: TestServer;
beforeAll(async () => void (server = await startTestServer()));
afterAll(() => server.close());

let dbs = 0;
const open = (seed: Flow[] = []) =>
  openWorkerRuntime(
    {
      dbName: `worker-calls-${++dbs}`,
      seed,
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

/** A flow that POSTs to the test server's `/sequence`, retrying a 503 a minute later. */
const callingFlow = (): Flow =>
  ({
    format: 'flow/1',
    id: 'pays',
    nodes: [
      { id: 'start', kind: 'start' },
      {
        id: 'pay',
        kind: 'continue-after',
        on: [
          {
            id: 'charged',
            into: 'payment',
            call: {
              method: 'POST',
              url: `'${server.origin}/sequence'`,
              timeout: 'PT1H',
              retry: { max: 3, interval: 'PT1M', backoff: 1, maxInterval: 'PT1M', on: [503] },
            },
          },
        ],
      },
      { id: 'done', kind: 'end' },
    ],
    edges: [
      { id: 'e1', from: 'start', to: 'pay' },
      { id: 'e2', from: 'pay', to: 'done' },
    ],
  }) as Flow;

describe("the inspector's reading of a process at a call", () => {
  it("rule: a reading holds each call wait's progress (attempts, the next due, the last status); sendCallNow sends the next attempt at once", async () => {
    server.answerSequence = [503, 200];
    const runtime = await open([callingFlow()]);
    await runtime.allowOrigin(server.origin);
    const p = await runtime.supervisor.start('pays');
    await runtime.settled();
    // The first attempt falls due as the process reaches the call: the schedule sends it.
    await runtime.wakeDue();
    await runtime.supervisor.idle();
    const waiting = await runtime.reading(p.id);
    expect(waiting?.record.status).toBe('waiting');
    const startedAt = waiting!.record.snapshot.scope.waits[0]!.since;
    expect(waiting?.calls).toEqual([
      { seq: expect.any(Number), attempts: 1, due: startedAt + 60_000, last: { status: 503 } },
    ]);
    expect(await runtime.supervisor.sendCallNow(p.id, waiting!.calls[0]!.seq)).toBe(true);
    await runtime.supervisor.idle();
    await runtime.settled();
    const done = await runtime.reading(p.id);
    expect(done?.record.status).toBe('done');
    expect(done?.calls).toEqual([]);
    const attempts = done!.journal.filter((e) => e.type === 'call-attempt');
    expect(attempts.map((e) => [e.attempt, e.status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    runtime.close();
  });
});
