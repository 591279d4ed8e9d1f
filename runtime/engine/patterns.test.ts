import { describe, expect, it } from 'vitest';
import {
  chain,
  edge,
  end,
  fanout,
  flow,
  join,
  start,
  subflow,
  wait,
  work,
} from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { ScenarioStep } from '../report/scenario.ts';
import type { SimulationReport } from '../report/processReport.ts';
import {
  processOf,
  runScenario as run,
  SCENARIO_START as T0,
} from '../cli/fixtures/scenarioRuns.ts';

/**
 * The workflow control-flow patterns (workflowpatterns.com, WCP n), each run as a scenario on the
 * real engine and supervisor with a virtual clock. Every expectation follows from docs/format.md#flows
 * and §3; the rule a test relies on is in its name.
 */

const at = (hours: number) => new Date(T0 + hours * 3_600_000).toISOString();

function proc(report: SimulationReport, id: string) {
  expect(report.errors).toEqual([]);
  return processOf(report, id);
}

/** A work node that appends its own id to the list `log`: the order in which nodes ran. */
const logged = (id: string) => work(id, { log: `$append(log, "${id}")` });

describe('basic control flow', () => {
  it('WCP 1 (Sequence): each node runs after the one before it completes, seeing its writes', async () => {
    // Only a, b, c in this order gives 12: b needs a's x, c needs b's.
    const f = flow({
      id: 'seq',
      nodes: [
        start(),
        work('a', { x: '1' }),
        work('b', { x: 'x * 10' }),
        work('c', { x: 'x + 2' }),
        end(),
      ],
      edges: chain('start', 'a', 'b', 'c', 'end'),
    });
    const p = proc(await run([f], [{ start: 'seq', as: 'p' }]), 'p');
    expect(p.status).toBe('done');
    expect(p.context).toEqual({ x: 12 });
    expect(p.visits).toEqual({ start: 1, a: 1, b: 1, c: 1, end: 1 });
  });

  it('WCP 2 (Parallel Split): every edge taken from one node starts a branch, in the order the flow lists the edges', async () => {
    // "All edges taken from one node run concurrently: that is fan-out, the default", and "the
    // targets of its edges in the order in which the flow lists them". The edges are listed c,
    // a, b; nodes are listed a, b, c. A fanout node and a plain work node split alike ("Any node
    // with several outgoing edges fans out").
    const branches = (id: string, split: Flow['nodes'][number]) =>
      flow({
        id,
        nodes: [start(), split, logged('a'), logged('b'), logged('c')],
        edges: [edge('start', 'split'), edge('split', 'c'), edge('split', 'a'), edge('split', 'b')],
      });
    const report = await run(
      [branches('viaFanout', fanout('split')), branches('viaWork', work('split', { n: '1' }))],
      [
        { start: 'viaFanout', as: 'p1', context: { log: [] } },
        { start: 'viaWork', as: 'p2', context: { log: [] } },
      ],
    );
    for (const id of ['p1', 'p2']) {
      const p = proc(report, id);
      expect(p.status).toBe('done');
      expect(p.visits).toMatchObject({ split: 1, a: 1, b: 1, c: 1 });
      expect(p.context).toMatchObject({ log: ['c', 'a', 'b'] });
    }
  });

  it('WCP 3 (Synchronization): a join runs once, only after every branch it names has completed', async () => {
    // "A node with depends is a barrier": j is reached by a first, but b is still asleep behind
    // w, which can reach it, so j is not settled; once w's timer fires and b runs, j runs once.
    const f = flow({
      id: 'sync',
      nodes: [
        start(),
        fanout('split'),
        work('a', { a: '1' }),
        wait('w', [{ id: 'hour', timer: 'PT1H' }]),
        work('b', { b: '2' }),
        join('j', ['a', 'b']),
        work('sum', { sum: 'a + b' }),
        end(),
      ],
      edges: [
        edge('split', 'a'),
        edge('split', 'w'),
        edge('start', 'split'),
        ...chain('w', 'b', 'j'),
        ...chain('a', 'j', 'sum', 'end'),
      ],
    });
    const before = proc(await run([f], [{ start: 'sync', as: 'p' }]), 'p');
    expect(before.status).toBe('waiting');
    expect(before.visits).toMatchObject({ a: 1 });
    expect(before.visits).not.toHaveProperty('j');
    expect(before.waits).toEqual([{ node: 'w', triggers: ['hour'], due: at(1) }]);

    const after = proc(await run([f], [{ start: 'sync', as: 'p' }, { advance: 'PT1H' }]), 'p');
    expect(after.status).toBe('done');
    expect(after.visits).toMatchObject({ a: 1, b: 1, j: 1, sum: 1, end: 1 });
    expect(after.context).toEqual({ a: 1, b: 2, sum: 3 });
  });

  it('WCP 4 (Exclusive Choice): only the edge whose when is true, after the node’s own writes, is taken', async () => {
    // choose doubles amount, then "each outgoing edge whose when is absent or true ... against
    // the live context, after the node's own writes, is taken": 60 becomes 120 (big), 40 becomes
    // 80 (small). Before the doubling, 60 would have gone to small.
    const f = flow({
      id: 'choice',
      nodes: [start(), work('choose', { amount: 'amount * 2' }), logged('big'), logged('small')],
      edges: [
        edge('start', 'choose'),
        edge('choose', 'big', { when: 'amount >= 100' }),
        edge('choose', 'small', { when: 'amount < 100' }),
      ],
    });
    const report = await run(
      [f],
      [
        { start: 'choice', as: 'sixty', context: { amount: 60, log: [] } },
        { start: 'choice', as: 'forty', context: { amount: 40, log: [] } },
      ],
    );
    const sixty = proc(report, 'sixty');
    expect(sixty.status).toBe('done');
    expect(sixty.context).toEqual({ amount: 120, log: ['big'] });
    expect(sixty.visits).not.toHaveProperty('small');
    const forty = proc(report, 'forty');
    expect(forty.status).toBe('done');
    expect(forty.context).toEqual({ amount: 80, log: ['small'] });
    expect(forty.visits).not.toHaveProperty('big');
  });

  it('WCP 5 (Simple Merge): a node without depends runs once per arriving branch', async () => {
    // "A node without depends runs each time an edge reaches it (a simple merge)": with both
    // branches taken, m and what follows it run twice; with one, once.
    const f = flow({
      id: 'merge',
      nodes: [
        start(),
        fanout('split'),
        work('a'),
        work('b'),
        work('m', { hits: 'hits + 1' }),
        end(),
      ],
      edges: [
        edge('start', 'split'),
        edge('split', 'a', { when: 'go.a' }),
        edge('split', 'b', { when: 'go.b' }),
        ...chain('a', 'm', 'end'),
        edge('b', 'm'),
      ],
    });
    const report = await run(
      [f],
      [
        { start: 'merge', as: 'both', context: { hits: 0, go: { a: true, b: true } } },
        { start: 'merge', as: 'one', context: { hits: 0, go: { a: false, b: true } } },
      ],
    );
    const both = proc(report, 'both');
    expect(both.status).toBe('done');
    expect(both.visits).toMatchObject({ a: 1, b: 1, m: 2, end: 2 });
    expect(both.context).toMatchObject({ hits: 2 });
    const one = proc(report, 'one');
    expect(one.status).toBe('done');
    expect(one.visits).toMatchObject({ b: 1, m: 1, end: 1 });
    expect(one.visits).not.toHaveProperty('a');
    expect(one.context).toMatchObject({ hits: 1 });
  });
});

describe('advanced branching and synchronization', () => {
  // split takes each edge whose flag is true: any subset of a, b, c.
  const multiChoice = (more: { nodes: Flow['nodes']; edges: Flow['edges'] }) =>
    flow({
      id: 'multi',
      nodes: [start(), fanout('split'), ...more.nodes],
      edges: [
        edge('start', 'split'),
        edge('split', 'a', { when: 'flags.a' }),
        edge('split', 'b', { when: 'flags.b' }),
        edge('split', 'cw', { when: 'flags.c' }),
        ...more.edges,
      ],
    });

  it('WCP 6 (Multi-Choice): every edge whose when is true is taken, the others not', async () => {
    const f = multiChoice({
      nodes: [logged('a'), logged('b'), wait('cw', [{ id: 'soon', timer: 'PT1M' }]), logged('c')],
      edges: [edge('cw', 'c')],
    });
    const report = await run(
      [f],
      [
        { start: 'multi', as: 'ac', context: { log: [], flags: { a: true, b: false, c: true } } },
        {
          start: 'multi',
          as: 'none',
          context: { log: [], flags: { a: false, b: false, c: false } },
        },
        { advance: 'PT1M' },
      ],
    );
    const ac = proc(report, 'ac');
    expect(ac.status).toBe('done');
    expect(ac.visits).toMatchObject({ a: 1, cw: 1, c: 1 });
    expect(ac.visits).not.toHaveProperty('b');
    expect(ac.context).toMatchObject({ log: ['a', 'c'] });
    // No edge taken: the branch ends at split, and with nothing left the process is done.
    const none = proc(report, 'none');
    expect(none.status).toBe('done');
    expect(none.visits).toEqual({ start: 1, split: 1 });
    expect(none.context).toMatchObject({ log: [] });
  });

  it('WCP 7 (Structured Synchronizing Merge): a join after a multi-choice runs once, after the taken branches only', async () => {
    // j names a, b and c. A named node "settled without having run was skipped: an edge's when
    // was false", so no join waits for a branch not taken; but it does wait for c while cw,
    // which can still reach c, sleeps. "The join then runs if at least one named node ran in
    // that generation, and is skipped if none did."
    const f = multiChoice({
      nodes: [
        logged('a'),
        logged('b'),
        wait('cw', [{ id: 'hour', timer: 'PT1H' }]),
        logged('c'),
        join('j', ['a', 'b', 'c']),
        work('report', { seen: 'log' }),
        end(),
      ],
      edges: [
        ...chain('cw', 'c', 'j'),
        edge('a', 'j'),
        edge('b', 'j'),
        ...chain('j', 'report', 'end'),
      ],
    });
    const steps = (as: string, flags: Record<string, boolean>): ScenarioStep[] => [
      { start: 'multi', as, context: { log: [], flags } },
    ];

    const early = proc(await run([f], steps('ac', { a: true, b: false, c: true })), 'ac');
    expect(early.status).toBe('waiting');
    expect(early.visits).toMatchObject({ a: 1 });
    expect(early.visits).not.toHaveProperty('j');

    const report = await run(
      [f],
      [
        ...steps('ac', { a: true, b: false, c: true }),
        ...steps('b', { a: false, b: true, c: false }),
        ...steps('none', { a: false, b: false, c: false }),
        { advance: 'PT1H' },
      ],
    );
    const ac = proc(report, 'ac');
    expect(ac.status).toBe('done');
    expect(ac.visits).toMatchObject({ a: 1, c: 1, j: 1, report: 1, end: 1 });
    expect(ac.visits).not.toHaveProperty('b');
    expect(ac.context).toMatchObject({ seen: ['a', 'c'] });

    const b = proc(report, 'b');
    expect(b.status).toBe('done');
    expect(b.visits).toMatchObject({ b: 1, j: 1, report: 1 });
    expect(b.context).toMatchObject({ seen: ['b'] });

    // None of the named nodes ran: j is skipped (not counted), nothing after it runs.
    const none = proc(report, 'none');
    expect(none.status).toBe('done');
    expect(none.visits).toEqual({ start: 1, split: 1 });
    expect(none.context).not.toHaveProperty('seen');
  });

  it('WCP 7 (Structured Synchronizing Merge): a join runs at most once however many branches arrive, and is skipped when it is reached but none of the nodes it names ran', async () => {
    // audit is always taken and leads to j, but j does not name it. With a taken, j is reached
    // twice (audit, a) and runs once. With nothing named taken, j is still reached (by audit),
    // every named node is settled without having run, so "the join ... is skipped if none did".
    const f = multiChoice({
      nodes: [
        logged('a'),
        logged('b'),
        wait('cw', [{ id: 'hour', timer: 'PT1H' }]),
        logged('c'),
        logged('audit'),
        join('j', ['a', 'b', 'c']),
        work('report', { seen: 'log' }),
      ],
      edges: [
        edge('split', 'audit'),
        ...chain('cw', 'c', 'j'),
        edge('a', 'j'),
        edge('b', 'j'),
        edge('audit', 'j'),
        edge('j', 'report'),
      ],
    });
    const report = await run(
      [f],
      [
        { start: 'multi', as: 'a', context: { log: [], flags: { a: true, b: false, c: false } } },
        {
          start: 'multi',
          as: 'none',
          context: { log: [], flags: { a: false, b: false, c: false } },
        },
      ],
    );
    const a = proc(report, 'a');
    expect(a.status).toBe('done');
    expect(a.visits).toMatchObject({ a: 1, audit: 1, j: 1, report: 1 });
    expect(a.context).toMatchObject({ seen: ['a', 'audit'] });

    const none = proc(report, 'none');
    expect(none.status).toBe('done');
    expect(none.visits).toEqual({ start: 1, split: 1, audit: 1 });
    expect(none.context).toEqual({ log: ['audit'], flags: { a: false, b: false, c: false } });
  });
});

describe('termination', () => {
  it('WCP 11 (Implicit Termination): the process is done when nothing is running, ready or waiting, with no end node', async () => {
    // "A branch ends at an end node or at a node with no edge taken. A process is done when
    // nothing in it is running, ready or waiting." Neither branch reaches an end node: a's edge
    // is false, b has no edge. While w sleeps the process waits; after, it is done.
    const f = flow({
      id: 'implicit',
      nodes: [
        start(),
        fanout('split'),
        work('a', { a: 'true' }),
        work('never', { never: 'true' }),
        wait('w', [{ id: 'hour', timer: 'PT1H' }]),
        work('b', { b: 'true' }),
      ],
      edges: [
        ...chain('start', 'split', 'a'),
        edge('a', 'never', { when: 'false' }),
        ...chain('split', 'w', 'b'),
      ],
    });
    const waiting = proc(await run([f], [{ start: 'implicit', as: 'p' }]), 'p');
    expect(waiting.status).toBe('waiting');
    expect(waiting.visits).toMatchObject({ a: 1 });

    const done = proc(await run([f], [{ start: 'implicit', as: 'p' }, { advance: 'PT1H' }]), 'p');
    expect(done.status).toBe('done');
    expect(done.waits).toEqual([]);
    expect(done.visits).toEqual({ start: 1, split: 1, a: 1, w: 1, b: 1 });
    expect(done.context).toEqual({ a: true, b: true });
  });

  it('WCP 43 (Explicit Termination): an end with terminate ends the process, dropping other branches and waits', async () => {
    // split's targets become ready in edge order: slow, quick, x. slow falls asleep, quick makes
    // stop ready, x makes y ready after it; stop runs before y ("ready nodes run in the order in
    // which they became ready") and "ends the whole process, dropping every other branch and
    // wait, and the process is done": y never runs, and slow's timer never fires.
    const f = flow({
      id: 'explicit',
      nodes: [
        start(),
        fanout('split'),
        wait('slow', [{ id: 'hour', timer: 'PT1H' }]),
        work('late', { late: 'true' }),
        work('quick', { quick: 'true' }),
        end('stop', { terminate: true }),
        work('x', { x: 'true' }),
        work('y', { y: 'true' }),
      ],
      edges: [
        ...chain('start', 'split', 'slow', 'late'),
        ...chain('split', 'quick', 'stop'),
        ...chain('split', 'x', 'y'),
      ],
    });
    const report = await run([f], [{ start: 'explicit', as: 'p' }, { advance: 'PT2H' }]);
    const p = proc(report, 'p');
    expect(p.status).toBe('done');
    expect(p.waits).toEqual([]);
    expect(p.visits).toEqual({ start: 1, split: 1, quick: 1, stop: 1, x: 1 });
    expect(p.context).toEqual({ quick: true, x: true });
  });

  it('WCP 43 (Explicit Termination): terminate inside a sub-flow ends that sub-flow only, and the parent goes on', async () => {
    // "Inside a sub-flow, terminate ends that sub-flow, which then completes, and the parent goes
    // on": the child's wait is dropped, sub completes once, after runs.
    const child = flow({
      id: 'child',
      nodes: [
        start(),
        fanout('split'),
        wait('hold', [{ id: 'day', timer: 'P1D' }]),
        work('held', { held: 'true' }),
        end('stop', { terminate: true }),
      ],
      edges: [...chain('start', 'split', 'hold', 'held'), edge('split', 'stop')],
    });
    const parent = flow({
      id: 'parent',
      nodes: [start(), subflow('sub', 'child'), work('after', { after: 'true' }), end()],
      edges: chain('start', 'sub', 'after', 'end'),
    });
    const report = await run([parent, child], [{ start: 'parent', as: 'p' }, { advance: 'P2D' }]);
    const p = proc(report, 'p');
    expect(p.status).toBe('done');
    expect(p.waits).toEqual([]);
    expect(p.visits).toMatchObject({ sub: 1, 'sub/stop': 1, after: 1, end: 1 });
    expect(p.visits).not.toHaveProperty('sub/hold');
    expect(p.visits).not.toHaveProperty('sub/held');
    expect(p.context).toEqual({ after: true });
  });
});

describe('state-based', () => {
  // w waits for the event "go" (its payload into got) or an hour, whichever fires first; each
  // trigger has its own edge. Afterwards the process waits at "after" for an event that never
  // comes, so that it stays alive and a dropped trigger could still be seen firing.
  const deferred = flow({
    id: 'deferred',
    nodes: [
      start(),
      wait('w', [
        { id: 'go', event: 'go', into: 'got' },
        { id: 'late', timer: 'PT1H' },
      ]),
      work('viaEvent', { path: '"event"' }),
      work('viaTimer', { path: '"timer"' }),
      wait('after', [{ id: 'never', event: 'never' }]),
    ],
    edges: [
      edge('start', 'w'),
      edge('w', 'viaEvent', { trigger: 'go' }),
      edge('w', 'viaTimer', { trigger: 'late' }),
      edge('viaEvent', 'after'),
      edge('viaTimer', 'after'),
    ],
  });
  const afterOnly = [{ node: 'after', triggers: ['never'], due: null }];

  it('WCP 16 (Deferred Choice): the event fires first and wins; the timer is dropped', async () => {
    // The event at 00:30 wins; a second "go" is dropped (no one waits for it), and the hour
    // timer, dropped with the wait, never fires even two hours later.
    const report = await run(
      [deferred],
      [
        { start: 'deferred', as: 'p' },
        { advance: 'PT30M' },
        { event: 'go', payload: { n: 1 } },
        { event: 'go', payload: { n: 2 } },
        { advance: 'PT2H' },
      ],
    );
    const p = proc(report, 'p');
    expect(p.status).toBe('waiting');
    expect(p.waits).toEqual(afterOnly);
    expect(p.visits).toEqual({ start: 1, w: 1, viaEvent: 1 });
    expect(p.context).toEqual({ got: { n: 1 }, path: 'event' });
  });

  it('WCP 16 (Deferred Choice): the timer fires first and wins; the event is dropped', async () => {
    // The timer is due at 01:00, exactly the end of the advance, so it fires; the event that
    // comes after finds no one waiting for it and is dropped: nothing goes into got.
    const report = await run(
      [deferred],
      [
        { start: 'deferred', as: 'p' },
        { advance: 'PT1H' },
        { event: 'go', payload: { n: 1 } },
        { advance: 'PT2H' },
      ],
    );
    const p = proc(report, 'p');
    expect(p.status).toBe('waiting');
    expect(p.waits).toEqual(afterOnly);
    expect(p.visits).toEqual({ start: 1, w: 1, viaTimer: 1 });
    expect(p.context).toEqual({ path: 'timer' });
  });
});
