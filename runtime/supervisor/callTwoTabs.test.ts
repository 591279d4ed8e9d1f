import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWait, edge, end, flow, start } from '../../shared/fixtures/flows.ts';
import type { Call, Flow } from '../../shared/schema.ts';
import { startTestServer, type TestServer } from '../calls/fixtures/testServer.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { secretsFrom } from '../calls/secrets.ts';
import { IdbStore } from '../store/idbStore.ts';
import 'fake-indexeddb/auto';
import { VirtualClock } from './clock.ts';
import { InProcessLocks } from './locks.ts';
import { Supervisor } from './supervisor.ts';

/**
 * Two tabs of one workspace each run a runtime worker over the same database, and each learns
 * of a process asleep at a call when it opens (its recovery). The rule (docs/format.md#calls,
 * "Idempotency"): one attempt is sent once, not once per tab; the tabs share their Web Locks,
 * here one InProcessLocks between two supervisors.
 */

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

function payFlow(call: Call): Flow {
  return flow({
    id: 'pay',
    nodes: [start(), callWait('pay', call), end()],
    edges: [edge('start', 'pay'), edge('pay', 'end', { trigger: 'c' })],
  });
}

/** Two supervisors on one database and one clock, as two tabs' workers are. */
async function twoTabs(f: Flow, id: string) {
  const name = `two-tabs-${id}-${Date.now()}`;
  const store = await IdbStore.open(name);
  await store.putFlow(f);
  const clock = new VirtualClock(T0);
  const locks = new InProcessLocks();
  const calls = { secrets: secretsFrom({}), allow: allowOrigins([server.origin]) };
  const a = new Supervisor(store, clock, { calls, locks });
  await a.start('pay', { id });
  const seq = (await a.mustGet(id)).snapshot.scope.waits[0]!.seq;
  // The second tab opens once the process sleeps at its call, on its own connection.
  const other = await IdbStore.open(name);
  const b = new Supervisor(other, clock, { calls, locks });
  return { store, other, clock, a, b, key: `wakeflow-${id}-${seq}-pay-g` };
}

describe('two tabs over one workspace send each attempt once (a lock per call wait)', () => {
  it('rule: while one tab has an attempt in flight, the other sends nothing, and then finds it settled', async () => {
    const { store, other, a, b, key } = await twoTabs(
      payFlow({ url: `'${server.origin}/slow'` }),
      's',
    );
    void a.wakeDue();
    await server.slowHeld(1);
    // The second tab's recovery finds the attempt counted and unanswered: what a crash leaves.
    // It may be the first tab's in flight, so it waits for the wait's lock instead of sending.
    const second = b.wakeDue();
    await second;
    expect(server.slowWaiting()).toBe(1);
    server.releaseSlow();
    await a.idle();
    await b.idle();
    expect(server.countByKey(key)).toBe(1);
    expect((await store.getProcess('s'))!.status).toBe('done');
    expect((await store.journal('s')).filter((e) => e.type === 'call-attempt')).toHaveLength(1);
    expect(await store.listCallProgress('s')).toEqual([]);
    other.close();
  });

  it('rule: with both tabs advancing, 503 then 200 is two attempts in all, each sent once', async () => {
    server.answerSequence = [503, 200];
    const retry = { max: 2, interval: 'PT1M', on: [503] };
    const { store, other, a, b, key } = await twoTabs(
      payFlow({ url: `'${server.origin}/sequence'`, retry }),
      'r',
    );
    await Promise.all([a.advanceTo(T0), b.advanceTo(T0)]);
    expect(server.countByKey(key)).toBe(1);
    await Promise.all([a.advanceTo(T0 + MINUTE), b.advanceTo(T0 + MINUTE)]);
    await Promise.all([a.idle(), b.idle()]);
    expect(server.countByKey(key)).toBe(2);
    const record = (await store.getProcess('r'))!;
    expect(record.status).toBe('done');
    const context = await store.getContext(record.contextId);
    expect((context!.value as { res: unknown }).res).toMatchObject({ ok: true, attempts: 2 });
    expect((await store.journal('r')).filter((e) => e.type === 'call-attempt')).toHaveLength(2);
    other.close();
  });
});
