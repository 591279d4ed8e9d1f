import { describe, expect, it } from 'vitest';
import { chain, edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { startSnapshot } from '../engine/step.ts';
import { VirtualClock } from './clock.ts';
import { hourly } from '../store/fixtures/storeScenarios.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import type { StepCommit } from './store.ts';
import { Supervisor, SupervisorError } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

async function setup(...flows: Flow[]) {
  const store = await testStore();
  const clock = new VirtualClock(T0);
  for (const f of flows) await store.putFlow(f);
  const supervisor = new Supervisor(store, clock);
  const advance = (ms: number) => supervisor.advanceTo(clock.now() + ms);
  const context = async (pid: string) =>
    (await store.getContext((await supervisor.mustGet(pid)).contextId))!.value;
  return { store, clock, supervisor, advance, context };
}

const inbox = flow({
  id: 'inbox',
  nodes: [
    start(),
    wait('listen', [
      { id: 'mail', event: 'mail', into: 'got' },
      {
        id: 'ask',
        human: {
          prompt: 'Name?',
          fields: [
            { name: 'name', type: 'string' },
            { name: 'age', type: 'number' },
          ],
        },
        into: 'person',
      },
    ]),
    end(),
  ],
  edges: chain('start', 'listen', 'end'),
});

describe('supervisor: clock and timers', () => {
  it('computes the due time of a wait from when it began', async () => {
    const { supervisor } = await setup(hourly());
    const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    expect(p.status).toBe('waiting');
    expect(p.due).toBe(T0 + HOUR);
  });

  it('advancing PT24H wakes an hourly loop 24 times, each timer at its due time', async () => {
    const { supervisor, advance, context, store } = await setup(hourly());
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    await advance(24 * HOUR);
    expect(await context('p')).toEqual({ count: 25 });
    const wakes = (await store.journal('p')).filter((e) => e.type === 'woke').map((e) => e.at);
    expect(wakes).toEqual(Array.from({ length: 24 }, (_, i) => T0 + (i + 1) * HOUR));
  });

  it('wakes timers of different processes in order of due time', async () => {
    const slow = flow({
      id: 'slow',
      nodes: [
        start(),
        wait('w', [{ id: 't', timer: 'PT3H' }]),
        work('note', { order: '$append(order, "slow")' }),
      ],
      edges: chain('start', 'w', 'note'),
    });
    const fast = flow({
      id: 'fast',
      nodes: [
        start(),
        wait('w', [{ id: 't', timer: 'PT1H' }]),
        work('note', { order: '$append(order, "fast")' }),
      ],
      edges: chain('start', 'w', 'note'),
    });
    const { supervisor, advance, context } = await setup(slow, fast);
    await supervisor.start('slow', { id: 's', context: { order: [] } });
    await supervisor.start('fast', { id: 'f', shareContextWith: 's' });
    await advance(5 * HOUR);
    expect(await context('s')).toEqual({ order: ['fast', 'slow'] });
  });
});

describe('supervisor: contexts', () => {
  it('binds a second process to the live context of the first, which it reads when it wakes', async () => {
    const reader = flow({
      id: 'reader',
      nodes: [start(), wait('w'), work('copy', { seen: 'count' })],
      edges: chain('start', 'w', 'copy'),
    });
    const { supervisor, advance, context } = await setup(hourly(), reader);
    await supervisor.start('hourly', { id: 'writer', context: { count: 0 } });
    await supervisor.start('reader', { id: 'reader', shareContextWith: 'writer' });
    await advance(HOUR);
    // At the same due time the writer (started first) wakes first: count is 2 when reader copies.
    expect(await context('reader')).toMatchObject({ count: 2, seen: 2 });
  });

  it('records who changed a context: process, node and what changed, and outside writes as such', async () => {
    const { supervisor, store } = await setup(hourly());
    const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    await supervisor.setContext('p', 'count', 10);
    const changes = await store.contextChanges(p.contextId);
    expect(changes.map((c) => [c.version, c.process, c.node, c.writes])).toEqual([
      [1, 'p', 'tick', [{ path: 'count', value: 1 }]],
      [2, null, null, [{ path: 'count', value: 10 }]],
    ]);
  });

  it('runs the node again against the fresh context when another writer moved it on (no lost write)', async () => {
    const { supervisor, store } = await setup(hourly());
    const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    // Just before the next step commits, someone else writes the context.
    const commit = store.commitStep.bind(store);
    let interfered = false;
    store.commitStep = async (c: StepCommit) => {
      if (!interfered && c.context.write) {
        interfered = true;
        await store.putContext({ id: p.contextId, version: 2, value: { count: 100 } }, 1);
      }
      return commit(c);
    };
    await supervisor.advanceTo(T0 + HOUR);
    const clockless = await store.getContext(p.contextId);
    // The tick ran again on count 100, so neither write is lost: 100 + 1.
    expect(clockless?.value).toEqual({ count: 101 });
    expect(clockless?.version).toBe(3);
  });
});

describe('supervisor: events and people', () => {
  it('delivers an event to every process waiting for that name, and drops it when nobody waits', async () => {
    const { supervisor, context } = await setup(inbox);
    await supervisor.start('inbox', { id: 'a' });
    await supervisor.start('inbox', { id: 'b' });
    expect(await supervisor.deliverEvent('other', {})).toBe(0);
    expect(await supervisor.deliverEvent('mail', { n: 1 })).toBe(2);
    expect(await context('a')).toEqual({ got: { n: 1 } });
    expect((await supervisor.mustGet('b')).status).toBe('done');
    expect(await supervisor.deliverEvent('mail', { n: 2 })).toBe(0);
  });

  it('delivers an event to one process when it names one', async () => {
    const { supervisor } = await setup(inbox);
    await supervisor.start('inbox', { id: 'a' });
    await supervisor.start('inbox', { id: 'b' });
    expect(await supervisor.deliverEvent('mail', {}, 'b')).toBe(1);
    expect((await supervisor.mustGet('a')).status).toBe('waiting');
  });

  it.each([
    [{ name: 'Ada' }, 'lacks the field "age"'],
    [{ name: 'Ada', age: 36, extra: 1 }, 'a field "extra" that trigger "ask" does not declare'],
    [{ name: 'Ada', age: '36' }, 'the field "age" must be a number'],
    ['Ada', 'must be an object'],
  ])(
    'refuses human input %j that does not match the fields, changing nothing',
    async (input, message) => {
      const { supervisor, context } = await setup(inbox);
      await supervisor.start('inbox', { id: 'a' });
      await expect(supervisor.submitHuman('a', 'listen', input)).rejects.toThrow(message);
      expect((await supervisor.mustGet('a')).status).toBe('waiting');
      expect(await context('a')).toEqual({});
    },
  );

  it('completes a human trigger with checked input', async () => {
    const { supervisor, context } = await setup(inbox);
    await supervisor.start('inbox', { id: 'a' });
    await supervisor.submitHuman('a', 'listen', { name: 'Ada', age: 36 });
    expect(await context('a')).toEqual({ person: { name: 'Ada', age: 36 } });
  });

  it('refuses human input for a node the process does not wait at', async () => {
    const { supervisor } = await setup(inbox);
    await supervisor.start('inbox', { id: 'a' });
    await expect(supervisor.submitHuman('a', 'elsewhere', {})).rejects.toThrow(
      'not waiting at "elsewhere"',
    );
    await expect(supervisor.submitHuman('nobody', 'listen', {})).rejects.toThrow(
      'no process "nobody"',
    );
  });
});

describe('supervisor: stop, resume, retry', () => {
  it('a stopped process does not wake, and events sent while it is stopped are not kept', async () => {
    const { supervisor, advance, context } = await setup(hourly(), inbox);
    await supervisor.start('hourly', { id: 'h', context: { count: 0 } });
    await supervisor.start('inbox', { id: 'i' });
    await supervisor.stop('h');
    await supervisor.stop('i');
    await advance(5 * HOUR);
    expect(await supervisor.deliverEvent('mail', {})).toBe(0);
    expect(await context('h')).toEqual({ count: 1 });
    await supervisor.resume('i');
    expect((await supervisor.mustGet('i')).status).toBe('waiting');
  });

  it('on resume, a timer that fell due while stopped fires at once, once', async () => {
    const { supervisor, advance, context } = await setup(hourly());
    await supervisor.start('hourly', { id: 'h', context: { count: 0 } });
    await supervisor.stop('h');
    await advance(5 * HOUR);
    await supervisor.resume('h');
    expect(await context('h')).toEqual({ count: 2 });
    expect((await supervisor.mustGet('h')).due).toBe(T0 + 6 * HOUR);
  });

  it('retry runs the failed node again, and it succeeds once the context allows it', async () => {
    const f = flow({
      id: 'f',
      nodes: [start(), work('w', { y: '$number(x)' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const { supervisor, context } = await setup(f);
    const p = await supervisor.start('f', { id: 'p', context: { x: 'not a number' } });
    expect(p.status).toBe('failed');
    expect(p.error).toMatch(/^node "w": /);
    await expect(supervisor.resume('p')).rejects.toThrow(SupervisorError);
    await supervisor.setContext('p', 'x', '5');
    const retried = await supervisor.retry('p');
    expect(retried.status).toBe('done');
    expect(await context('p')).toEqual({ x: '5', y: 5 });
  });

  it('refuses to start a flow that cannot run, naming the problem', async () => {
    const broken = flow({
      id: 'broken',
      nodes: [start(), { id: 'j', kind: 'join', depends: [] }],
      edges: chain('start', 'j'),
    });
    const { supervisor, store } = await setup(broken);
    await expect(supervisor.start('broken', { id: 'p' })).rejects.toThrow(
      /cannot run until it is fixed: node "j"/,
    );
    expect(await store.listProcesses()).toEqual([]);
  });
});

describe('supervisor: a flow that changed while a process slept', () => {
  const v1 = flow({
    id: 'f',
    nodes: [start(), wait('sleep'), work('a', { v: '1' }), end()],
    edges: chain('start', 'sleep', 'a', 'end'),
  });
  const v2 = flow({
    id: 'f',
    nodes: [start(), wait('sleep'), work('a', { v: '2' }), end()],
    edges: chain('start', 'sleep', 'a', 'end'),
  });
  const gone = flow({
    id: 'f',
    nodes: [start(), work('a', { v: '3' }), end()],
    edges: chain('start', 'a', 'end'),
  });

  async function changed(next: Flow) {
    const s = await setup(v1);
    await s.supervisor.start('f', { id: 'p' });
    await s.store.putFlow(next);
    await s.advance(HOUR);
    return s;
  }

  it('does not run: its status becomes flow-changed, with the list of changes', async () => {
    const { supervisor, context } = await changed(v2);
    const p = await supervisor.mustGet('p');
    expect(p.status).toBe('flow-changed');
    expect(p.changes).toEqual([{ flow: 'f', item: 'node', id: 'a', change: 'changed' }]);
    expect(await context('p')).toEqual({});
  });

  it('moving a node or renaming it is not a change', async () => {
    const s = await setup(v1);
    await s.supervisor.start('f', { id: 'p' });
    await s.store.putFlow({
      ...v1,
      nodes: v1.nodes.map((n) => ({ ...n, label: 'renamed', position: { x: 9, y: 9 } })),
    });
    await s.advance(HOUR);
    expect((await s.supervisor.mustGet('p')).status).toBe('done');
  });

  it('continue goes on with the new flow, and the trigger that woke it still counts', async () => {
    const { supervisor, context } = await changed(v2);
    const p = await supervisor.resolve('p', 'continue');
    expect(p.status).toBe('done');
    expect(await context('p')).toEqual({ v: 2 });
  });

  it('continue is refused, naming the node, when the process waits at a node that no longer exists', async () => {
    const { supervisor } = await changed(gone);
    await expect(supervisor.resolve('p', 'continue')).rejects.toThrow(
      'node "sleep" no longer exists',
    );
    expect((await supervisor.mustGet('p')).status).toBe('flow-changed');
  });

  it('keep goes on with the version the process started on, and stays on it', async () => {
    const { supervisor, context } = await changed(v2);
    const p = await supervisor.resolve('p', 'keep');
    expect(p.status).toBe('done');
    expect(await context('p')).toEqual({ v: 1 });
  });

  it('restart starts again from start of the flow as it is now, on the same context', async () => {
    const { supervisor, context } = await changed(gone);
    const p = await supervisor.resolve('p', 'restart');
    expect(p.status).toBe('done');
    expect(await context('p')).toEqual({ v: 3 });
    expect(p.snapshot.visits).toEqual({ start: 1, a: 1, end: 1 });
  });

  it('cancel cancels it', async () => {
    const { supervisor } = await changed(v2);
    expect((await supervisor.resolve('p', 'cancel')).status).toBe('cancelled');
  });

  it('resolve is refused for a process whose flow did not change', async () => {
    const s = await setup(v1);
    await s.supervisor.start('f', { id: 'p' });
    await expect(s.supervisor.resolve('p', 'continue')).rejects.toThrow(
      'only a process whose flow changed',
    );
  });
});

describe('supervisor: waits are read from the version a process fell asleep on', () => {
  const ask = {
    id: 'ask',
    human: { prompt: 'OK?', fields: [{ name: 'ok', type: 'boolean' as const }] },
    into: 'answer',
  };
  const timed = flow({
    id: 'f',
    nodes: [
      start(),
      wait('await', [ask, { id: 'timeout', timer: 'PT2H' }]),
      work('expire', { expired: 'true' }),
      end(),
    ],
    edges: [
      edge('start', 'await'),
      edge('await', 'expire', { trigger: 'timeout' }),
      edge('await', 'end', { trigger: 'ask' }),
    ],
  });
  const withoutTimer = flow({
    id: 'f',
    nodes: [start(), wait('await', [ask]), end()],
    edges: [edge('start', 'await'), edge('await', 'end')],
  });
  const renamed = flow({
    ...timed,
    nodes: timed.nodes.map((n) => (n.id === 'await' ? { ...n, id: 'approve' } : n)),
  });

  it('a timer whose trigger the new flow removed still wakes the process into flow-changed', async () => {
    const { supervisor, store, advance } = await setup(timed);
    await supervisor.start('f', { id: 'p' });
    await store.putFlow(withoutTimer);
    await advance(3 * HOUR);
    const p = await supervisor.mustGet('p');
    expect(p.status).toBe('flow-changed');
    expect(p.pendingWake?.trigger).toBe('timeout');
  });

  it('human input for a node the new flow renamed wakes the process into flow-changed', async () => {
    const { supervisor, store } = await setup(timed);
    await supervisor.start('f', { id: 'p' });
    await store.putFlow(renamed);
    const p = await supervisor.submitHuman('p', 'await', { ok: true });
    expect(p.status).toBe('flow-changed');
    expect(p.changes).toContainEqual({ flow: 'f', item: 'node', id: 'await', change: 'removed' });
  });

  it('a timer that fell due while stopped still counts after the flow changed and keep is chosen', async () => {
    const { supervisor, store, advance, context } = await setup(timed);
    await supervisor.start('f', { id: 'p' });
    await supervisor.stop('p');
    await advance(3 * HOUR);
    await store.putFlow({
      ...timed,
      nodes: timed.nodes.map((n) => (n.id === 'expire' ? { ...n, set: { expired: '"yes"' } } : n)),
    });
    expect((await supervisor.resume('p')).status).toBe('flow-changed');
    expect((await supervisor.resolve('p', 'keep')).status).toBe('done');
    expect(await context('p')).toEqual({ expired: true });
  });
});

describe('supervisor: the inspector controls', () => {
  const chainOf = flow({
    id: 'chain',
    nodes: [start(), work('a', { n: '1' }), work('b', { n: 'n + 1' }), wait('w'), end()],
    edges: chain('start', 'a', 'b', 'w', 'end'),
  });

  it('Step runs exactly one node of a running process', async () => {
    const { supervisor, store, context } = await setup(chainOf);
    const started = await supervisor.start('chain', { id: 'p' });
    // Put it back at its beginning, running, as a process is between two steps.
    await store.putProcess({ ...started, status: 'running', snapshot: startSnapshot(chainOf) });
    await store.putContext({ id: started.contextId, version: 3, value: {} }, 2);
    await supervisor.stepOnce('p');
    expect((await supervisor.mustGet('p')).snapshot.visits).toEqual({ start: 1 });
    await supervisor.stepOnce('p');
    expect(await context('p')).toEqual({ n: 1 });
    expect((await supervisor.mustGet('p')).status).toBe('running');
    // Stopped between two steps, it still steps, one node at a time, and stays stopped.
    await supervisor.stop('p');
    const stepped = await supervisor.stepOnce('p');
    expect(stepped.status).toBe('stopped');
    expect(await context('p')).toEqual({ n: 2 });
    // Once it reaches a stop of its own (the wait), it is waiting, and a waiting process does not step.
    expect((await supervisor.stepOnce('p')).status).toBe('waiting');
    await expect(supervisor.stepOnce('p')).rejects.toThrow(
      'only a process with a node ready can step',
    );
  });

  it('a process started paused runs nothing until it is stepped or resumed', async () => {
    const { supervisor, context } = await setup(chainOf);
    const p = await supervisor.start('chain', { id: 'p', paused: true });
    expect(p.status).toBe('stopped');
    expect(p.snapshot.visits).toEqual({});
    await supervisor.stepOnce('p');
    await supervisor.stepOnce('p');
    expect(await context('p')).toEqual({ n: 1 });
    expect((await supervisor.resume('p')).status).toBe('waiting');
    expect(await context('p')).toEqual({ n: 2 });
  });

  it('Wake now fires the earliest timer before it is due', async () => {
    const { supervisor, context } = await setup(hourly());
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    await supervisor.wakeNow('p');
    expect(await context('p')).toEqual({ count: 2 });
    await expect(supervisor.wakeNow('nobody')).rejects.toThrow('no process');
  });

  it('advancing reports progress once per batch and stops where it is when cancelled', async () => {
    const store = await testStore();
    await store.putFlow(hourly());
    const clock = new VirtualClock(T0);
    // A pass of the loop is three acts (the fire, tick, sleep): a batch of three holds one pass.
    const supervisor = new Supervisor(store, clock, { maxStepsPerBatch: 3 });
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    const controller = new AbortController();
    const seen: number[] = [];
    const result = await supervisor.advanceTo(T0 + 100 * HOUR, {
      signal: controller.signal,
      onProgress: (_time, wakes) => {
        seen.push(wakes);
        if (wakes === 5) controller.abort();
      },
    });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(result).toEqual({ wakes: 5, reached: T0 + 5 * HOUR });
    expect(clock.now()).toBe(T0 + 5 * HOUR);
    const p = await supervisor.mustGet('p');
    expect((await store.getContext(p.contextId))!.value).toEqual({ count: 6 });
  });

  it('rule: an advance reports each batch, not each pass: 100 passes of three acts are one batch', async () => {
    const { supervisor, context } = await setup(hourly());
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    const seen: [number, number][] = [];
    const result = await supervisor.advanceTo(T0 + 100 * HOUR, {
      onProgress: (time, wakes) => seen.push([time, wakes]),
    });
    expect(seen).toEqual([[T0 + 100 * HOUR, 100]]);
    expect(result).toEqual({ wakes: 100, reached: T0 + 100 * HOUR });
    expect(await context('p')).toEqual({ count: 101 });
  });
});
