import { describe, expect, it } from 'vitest';
import { edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { ContextRecord } from '../supervisor/records.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { FakeRestate } from './fixtures/fakeRestate.ts';
import { ProcessStore } from './processStore.ts';
import { PROCESS } from './processRef.ts';
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

/** What a handler does last: writes its meta. */
async function ended(store: ProcessStore): Promise<void> {
  store.flush();
}

/** A start of process `id` at `now`, as its handler runs it (the meta written last). */
async function started(
  restate: FakeRestate,
  id: string,
  now: number,
  options: { context?: unknown; shareContextWith?: string },
  flowId = 'loop',
) {
  const run = invocation(restate, id, now);
  await run.supervisor.start(flowId, { id, ...options });
  await ended(run.store);
  return run;
}

/** A wake of process `id` at `now`, as its tick runs it; how many processes it woke. */
async function woken(restate: FakeRestate, id: string, now: number): Promise<number> {
  const run = invocation(restate, id, now);
  const woke = await run.supervisor.wakeDue();
  await ended(run.store);
  return woke;
}

/** The context of process `id` as a reader (its status, its reading) is shown it. */
async function contextOf(restate: FakeRestate, id: string): Promise<ContextRecord | undefined> {
  const reader = new ProcessStore(restate.processContext(id), { shared: true });
  return reader.getContext((await reader.getProcess(id))!.contextId);
}

/** What a start sharing the context of `owner` asks first (processObject.ts#shareFirst). */
async function shareFirst(restate: FakeRestate, owner: string, sharer = true): Promise<void> {
  await restate.processContext('other').objectClient(PROCESS, owner).shareContext({ sharer });
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
  it('rule: a start reads its flow once and keeps its context as its own: no other object is asked', async () => {
    const restate = await deployed(loop());
    const calls = await callsOf(restate, () => started(restate, 'p', T0, { context: { n: 0 } }));
    // The registry is told one way; the deploy kept the version.
    expect(calls).toEqual(['flow/read', 'registry/register (send)']);
    expect(await contextOf(restate, 'p')).toMatchObject({ version: 1, value: { n: 1 } });
  });

  it('rule: a flow deployed by an earlier version has its version kept by its first start, once', async () => {
    const restate = new FakeRestate();
    // As `put` left a flow before it kept the version deployed.
    restate.seed('flow', 'loop', 'current', loop());
    const first = await callsOf(restate, () => started(restate, 'p', T0, { context: { n: 0 } }));
    expect(first).toEqual(['flow/read', 'flow/keepVersion', 'registry/register (send)']);
    const again = await callsOf(restate, () => started(restate, 'q', T0, { context: { n: 0 } }));
    expect(again).toEqual(['flow/read', 'registry/register (send)']);
  });

  it('rule: a wake reads its flow once and commits its own context with its snapshot, with no call', async () => {
    const restate = await deployed(loop());
    await started(restate, 'p', T0, { context: { n: 0 } });
    // Two passes that write `n`, then the one that finds `n` at 3 and ends, writing nothing.
    for (const [pass, n] of [
      [1, 2],
      [2, 3],
      [3, 3],
    ] as const) {
      const calls = await callsOf(restate, async () =>
        expect(await woken(restate, 'p', T0 + pass * 1000)).toBe(1),
      );
      expect(calls).toEqual(['flow/read']);
      expect((await contextOf(restate, 'p'))?.value).toEqual({ n });
    }
    expect((await invocation(restate, 'p', T0).store.getProcess('p'))?.status).toBe('done');
    // Its changes are kept with it, one per version, as a context object keeps them.
    const changes = await invocation(restate, 'p', T0).store.contextChanges(
      (await contextOf(restate, 'p'))!.id,
    );
    expect(changes.map((c) => c.version)).toEqual([1, 2, 3]);
  });

  it('rule: a commit that wrote nothing keeps the context it read, whole, for the next wake to step on', async () => {
    // It sleeps first: its start commits without writing, and its first wake then adds one.
    const sleepy = flow({
      id: 'sleepy',
      nodes: [start(), wait('sleep', [{ id: 't', timer: 'PT1S' }]), work('inc', { n: 'n + 1' })],
      edges: [edge('start', 'sleep'), edge('sleep', 'inc'), edge('inc', 'sleep')],
    });
    const restate = await deployed(sleepy);
    await started(restate, 'p', T0, { context: { n: 41 } }, 'sleepy');
    await woken(restate, 'p', T0 + 1000);
    expect((await contextOf(restate, 'p'))?.value).toEqual({ n: 42 });
  });

  it('rule: a context another process shares is moved into a context object first, with its changes, and each then commits there', async () => {
    const restate = await deployed(loop('loop', 10));
    await started(restate, 'p', T0, { context: { n: 0 } });
    const moved = await callsOf(restate, () => shareFirst(restate, 'p'));
    expect(moved).toEqual(['process/shareContext', 'context/adopt']);
    await started(restate, 'q', T0, { shareContextWith: 'p' });
    // Each wakes in turn, each time on a context the other wrote last.
    for (const [id, at] of [
      ['p', 1],
      ['q', 1],
      ['p', 2],
    ] as const) {
      const calls = await callsOf(restate, () => woken(restate, id, T0 + at * 1000));
      // Its kept copy is stale: refused, it steps again on the context the refusal answered.
      expect(calls).toEqual(['flow/read', 'context/commit', 'context/commit']);
    }
    const id = (await contextOf(restate, 'p'))!.id;
    const context = await restate.processContext('reader').objectClient(CONTEXT, id).get();
    // Two starts and three passes, each adding one: 5 writes, none lost, none twice.
    expect(context).toMatchObject({ version: 5, value: { n: 5 } });
    expect(
      (await restate.processContext('reader').objectClient(CONTEXT, id).changes()).length,
    ).toBe(5);
    // Both know now that others write their context: their timers go through its waker.
    for (const id of ['p', 'q'])
      expect(await invocation(restate, id, T0).store.meta.get('contextShared')).toBe(true);
  });

  it('rule: a reader of a shared context is shown it as it is, not the copy its process kept', async () => {
    const restate = await deployed(loop('loop', 10));
    await started(restate, 'p', T0, { context: { n: 0 } });
    await shareFirst(restate, 'p');
    const id = (await contextOf(restate, 'p'))!.id;
    const other = restate.processContext('other').objectClient(CONTEXT, id);
    const now = (await other.get()) as ContextRecord;
    expect(
      await other.put({
        record: { id, version: now.version + 1, value: { n: -5 } },
        expectedVersion: now.version,
      }),
    ).toBe(true);
    expect((await contextOf(restate, 'p'))?.value).toEqual({ n: -5 });
    // Its wake adds one to what the other wrote, not to what it had kept (1).
    await woken(restate, 'p', T0 + 1000);
    expect((await other.get())?.value).toEqual({ n: -4 });
  });

  it('rule: a wake after a deploy still finds the flow changed: the flow is read on every wake', async () => {
    const restate = await deployed(loop());
    await started(restate, 'p', T0, { context: { n: 0 } });
    const changed = loop();
    changed.nodes.push({ id: 'extra', kind: 'work', set: { m: '1' } } as Flow['nodes'][number]);
    await restate.processContext('deployer').objectClient(FLOW, 'loop').put(changed);
    const calls = await callsOf(restate, () => woken(restate, 'p', T0 + 1000));
    // The version it stood on is no longer the current one: read from the flow object.
    expect(calls).toEqual(['flow/read', 'flow/version']);
    expect((await invocation(restate, 'p', T0).store.getProcess('p'))?.status).toBe('flow-changed');
  });
});
