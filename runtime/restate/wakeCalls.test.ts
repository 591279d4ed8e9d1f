import { describe, expect, it } from 'vitest';
import { edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { ContextRecord } from '../supervisor/records.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { FakeRestate } from './fixtures/fakeRestate.ts';
import { ProcessStore } from './processStore.ts';
import { CONTEXT, FLOW } from './refs.ts';

// What one start and one wake of a process ask of the other objects (processStore.ts): every
// call is an invocation, an entry of Restate's log, so each counts. A process is driven as its
// handlers drive it, a new store and supervisor per invocation, on FakeRestate, which runs the
// other objects' own handlers and logs each call.

const T0 = Date.UTC(2026, 0, 1);

/** A loop: each pass adds one to `n` and sleeps a second, until `n` is `until`. */
const loop = (id = 'loop', until = 3): Flow =>
  flow({
    id,
    nodes: [
      start(),
      work('inc', { n: 'n + 1' }),
      wait('sleep', [{ id: 't', timer: 'PT1S' }]),
      end(),
    ],
    edges: [
      edge('start', 'inc'),
      edge('inc', 'sleep'),
      edge('sleep', 'inc', { when: `n < ${until}` }),
      edge('sleep', 'end', { when: `n >= ${until}` }),
    ],
  });

/** One invocation of process `id`: a store and a supervisor of its own, at time `now`. */
function invocation(restate: FakeRestate, id: string, now: number) {
  let made = 0;
  const store = new ProcessStore(restate.processContext(id), {
    createdAt: () => now * 1000 + ++made,
  });
  let ids = 0;
  const supervisor = new Supervisor(
    store,
    { now: () => now },
    {
      newId: (kind) => {
        const made = `${kind}-${id}-${now}-${++ids}`;
        if (kind === 'context') store.madeId(made);
        return made;
      },
      sendsCalls: false,
    },
  );
  return { store, supervisor };
}

/** What a handler does last: sends a context made and never committed, writes its meta. */
async function ended(store: ProcessStore): Promise<void> {
  await store.finish();
  store.flush();
}

/** The calls an invocation made, without the object keys (context ids are made up). */
async function callsOf(restate: FakeRestate, run: () => Promise<unknown>): Promise<string[]> {
  const before = restate.calls.length;
  await run();
  return restate.calls.slice(before).map((c) => c.replace(/^(\w+)\/[^/]+\//, '$1/'));
}

async function deployed(f: Flow): Promise<FakeRestate> {
  const restate = new FakeRestate();
  await restate.processContext('deployer').objectClient(FLOW, f.id).put(f);
  restate.calls.length = 0;
  return restate;
}

describe('what a start and a wake ask of the other objects on Restate', () => {
  it('rule: a start reads its flow once, keeps its version once, and creates its context with its first commit', async () => {
    const restate = await deployed(loop());
    const first = invocation(restate, 'p', T0);
    const calls = await callsOf(restate, async () => {
      await first.supervisor.start('loop', { id: 'p', context: { n: 0 } });
      await ended(first.store);
    });
    expect(calls).toEqual([
      'flow/read',
      'flow/keepVersion',
      'context/commit',
      'registry/register (send)',
    ]);
    // Its version now kept, the next start of the flow does not keep it again.
    const second = invocation(restate, 'q', T0);
    const again = await callsOf(restate, async () => {
      await second.supervisor.start('loop', { id: 'q', context: { n: 0 } });
      await ended(second.store);
    });
    expect(again).toEqual(['flow/read', 'context/commit', 'registry/register (send)']);
    expect((await invocation(restate, 'p', T0).store.getProcess('p'))?.status).toBe('waiting');
  });

  it('rule: a wake reads its flow once and commits, stepping on the context it kept at its last commit', async () => {
    const restate = await deployed(loop());
    const first = invocation(restate, 'p', T0);
    await first.supervisor.start('loop', { id: 'p', context: { n: 0 } });
    await ended(first.store);
    // Two passes that write `n`, then the one that finds `n` at 3 and ends, writing nothing.
    for (const [pass, n] of [
      [1, 2],
      [2, 3],
      [3, 3],
    ] as const) {
      const wake = invocation(restate, 'p', T0 + pass * 1000);
      const calls = await callsOf(restate, async () => {
        expect(await wake.supervisor.wakeDue()).toBe(1);
        await ended(wake.store);
      });
      expect(calls).toEqual(['flow/read', 'context/commit']);
      const id = await contextOf(wake.store);
      const context = await restate.processContext('reader').objectClient(CONTEXT, id).get();
      expect(context?.value).toEqual({ n });
    }
    expect((await invocation(restate, 'p', T0).store.getProcess('p'))?.status).toBe('done');
  });

  it('rule: a commit that wrote nothing keeps the context it read, whole, for the next wake to step on', async () => {
    // It sleeps first: its start commits without writing, and its first wake then adds one.
    const sleepy = flow({
      id: 'sleepy',
      nodes: [start(), wait('sleep', [{ id: 't', timer: 'PT1S' }]), work('inc', { n: 'n + 1' })],
      edges: [edge('start', 'sleep'), edge('sleep', 'inc'), edge('inc', 'sleep')],
    });
    const restate = await deployed(sleepy);
    const first = invocation(restate, 'p', T0);
    await first.supervisor.start('sleepy', { id: 'p', context: { n: 41 } });
    await ended(first.store);
    const wake = invocation(restate, 'p', T0 + 1000);
    const calls = await callsOf(restate, async () => {
      await wake.supervisor.wakeDue();
      await ended(wake.store);
    });
    expect(calls).toEqual(['flow/read', 'context/commit']);
    const id = await contextOf(wake.store);
    expect((await restate.processContext('reader').objectClient(CONTEXT, id).get())?.value).toEqual(
      {
        n: 42,
      },
    );
  });

  it('rule: a wake whose kept context is stale is refused by the compare-and-set, and steps again on the context the refusal answers', async () => {
    const restate = await deployed(loop());
    const first = invocation(restate, 'p', T0);
    await first.supervisor.start('loop', { id: 'p', context: { n: 0 } });
    await ended(first.store);
    const id = await contextOf(first.store);
    // Another writer (a process sharing the context, a set-context) moves it on meanwhile.
    const other = restate.processContext('other').objectClient(CONTEXT, id);
    const now = (await other.get()) as ContextRecord;
    expect(
      await other.put({
        record: { id, version: now.version + 1, value: { n: -5 } },
        expectedVersion: now.version,
      }),
    ).toBe(true);
    // A reader (a shared handler: status, reading) is shown the context as it is.
    const reader = new ProcessStore(restate.processContext('p'), { shared: true });
    expect((await reader.getContext(id))?.value).toEqual({ n: -5 });
    const wake = invocation(restate, 'p', T0 + 1000);
    const calls = await callsOf(restate, async () => {
      await wake.supervisor.wakeDue();
      await ended(wake.store);
    });
    // No read of the context: the refused commit answered it.
    expect(calls).toEqual(['flow/read', 'context/commit', 'context/commit']);
    // Its pass added one to what the other wrote, not to what it had kept (1).
    expect((await other.get())?.value).toEqual({ n: -4 });
    // It now knows that others write its context: its timers go through the context's waker.
    expect(await invocation(restate, 'p', T0).store.meta.get('contextShared')).toBe(true);
  });

  it("rule: processes sharing a context each step on the other's writes: none is lost", async () => {
    const restate = await deployed(loop('loop', 10));
    const p = invocation(restate, 'p', T0);
    await p.supervisor.start('loop', { id: 'p', context: { n: 0 } });
    await ended(p.store);
    const q = invocation(restate, 'q', T0);
    await q.supervisor.start('loop', { id: 'q', shareContextWith: 'p' });
    await ended(q.store);
    // Each wakes in turn, each time on a context the other wrote last.
    for (const [id, at] of [
      ['p', 1],
      ['q', 1],
      ['p', 2],
    ] as const) {
      const wake = invocation(restate, id, T0 + at * 1000);
      await wake.supervisor.wakeDue();
      await ended(wake.store);
    }
    const id = await contextOf(p.store);
    const context = await restate.processContext('reader').objectClient(CONTEXT, id).get();
    // Two starts and three passes, each adding one: 5 writes, none lost, none twice.
    expect(context).toMatchObject({ version: 5, value: { n: 5 } });
  });

  it('rule: a wake after a deploy still finds the flow changed: the flow is read on every wake', async () => {
    const restate = await deployed(loop());
    const first = invocation(restate, 'p', T0);
    await first.supervisor.start('loop', { id: 'p', context: { n: 0 } });
    await ended(first.store);
    const changed = loop();
    changed.nodes.push({ id: 'extra', kind: 'work', set: { m: '1' } } as Flow['nodes'][number]);
    await restate.processContext('deployer').objectClient(FLOW, 'loop').put(changed);
    const wake = invocation(restate, 'p', T0 + 1000);
    const calls = await callsOf(restate, async () => {
      await wake.supervisor.wakeDue();
      await ended(wake.store);
    });
    // The version it stood on is no longer the current one: read from the flow object.
    expect(calls).toEqual(['flow/read', 'flow/version']);
    expect((await wake.store.getProcess('p'))?.status).toBe('flow-changed');
  });
});

/** The context id of the store's own process, as its record names it. */
async function contextOf(store: ProcessStore): Promise<string> {
  return (await store.getProcess('p'))!.contextId;
}
