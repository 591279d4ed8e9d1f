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
import type { EngineEnv } from './run.ts';
import { fire, runToStop, startSnapshot, step, type StepResult } from './step.ts';
import { timersOf } from './timers.ts';

/**
 * A step copies only what it changes and shares the rest with the snapshot it was given, and
 * runToStop changes its own snapshots' counters in place (run.ts, `owned`). Neither may show:
 * the snapshot given is never changed, and a failed node leaves the snapshot before it.
 */
const envOf = (flows: Flow[]): EngineEnv => {
  const byId = new Map(flows.map((f) => [f.id, f]));
  return { flows: (id) => byId.get(id), now: 0 };
};

/** Steps one at a time with step(), each from a frozen deep copy of the last snapshot. */
async function stepByStep(f: Flow, context: unknown) {
  const env = envOf([f]);
  let snapshot = startSnapshot(f);
  let last: StepResult | undefined;
  for (let i = 0; i < 100; i++) {
    const given = structuredClone(snapshot);
    last = await step(snapshot, context, env);
    // The snapshot a step was given is exactly as it was.
    expect(snapshot).toEqual(given);
    if (last.status !== 'running') return last;
    for (const w of last.writes) context = { ...(context as object), [w.path]: w.value };
    snapshot = last.snapshot;
  }
  return last!;
}

describe('steps copy what they change', () => {
  it('a step never changes the snapshot it was given, joins included', async () => {
    const f = flow({
      nodes: [
        start(),
        fanout('split'),
        work('a', { a: '1' }),
        work('b', { b: '2' }),
        join('both', ['a', 'b']),
        end(),
      ],
      edges: [
        ...chain('start', 'split'),
        edge('split', 'a'),
        edge('split', 'b'),
        edge('a', 'both'),
        edge('b', 'both'),
        ...chain('both', 'end'),
      ],
    });
    const last = await stepByStep(f, {});
    expect(last.status).toBe('done');
    const all = await runToStop(startSnapshot(f), {}, envOf([f]));
    expect(all.snapshot).toEqual(last.snapshot);
  });

  it('a number written is the JSON value, as without the shortcut: -0 is stored as 0', async () => {
    const f = flow({
      nodes: [start(), work('w', { z: '0 * -1', n: '-count' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const done = await runToStop(startSnapshot(f), { count: 0 }, envOf([f]));
    const ctx = done.context as { z: number; n: number };
    expect(Object.is(ctx.z, 0)).toBe(true);
    expect(Object.is(ctx.n, 0)).toBe(true);
  });

  it('a node failing late in runToStop leaves the snapshot before it, counters included', async () => {
    const f = flow({
      nodes: [
        start(),
        work('one', { n: '1' }),
        work('two', { n: 'n + 1' }),
        work('bad', { x: 'n + "a"' }),
        end(),
      ],
      edges: chain('start', 'one', 'two', 'bad', 'end'),
    });
    const env = envOf([f]);
    const given = startSnapshot(f);
    const copy = structuredClone(given);
    const all = await runToStop(given, {}, env);
    expect(given).toEqual(copy);
    expect(all.status).toBe('failed');
    expect(all.snapshot.failed?.path).toBe('bad');
    expect(all.snapshot.visits).toEqual({ start: 1, one: 1, two: 1 });
    const one = await stepByStep(f, {});
    expect(all.snapshot).toEqual(one.snapshot);
  });
});

describe('runToStop appends every step to one journal', () => {
  it("a step that fails after appending (a sub-flow ends, the caller's edge then fails) leaves none of it: the journal and writes are those of step after step", async () => {
    // inner's last node writes, then ends inner; the caller's edge out of the sub-flow node fails
    // in the same step, after that step's writes and entries were appended.
    const inner = flow({
      id: 'inner',
      nodes: [start(), work('w', { n: '1' })],
      edges: chain('start', 'w'),
    });
    const main = flow({
      id: 'main',
      nodes: [start(), subflow('sub', 'inner'), end()],
      edges: [edge('start', 'sub'), edge('sub', 'end', { when: 'n + "a"' })],
    });
    const env = envOf([main, inner]);
    const all = await runToStop(startSnapshot(main), {}, env);
    expect(all.status).toBe('failed');
    expect(all.snapshot.failed?.path).toBe('sub');

    let snapshot = startSnapshot(main);
    const journal: StepResult['journal'] = [];
    const writes: StepResult['writes'] = [];
    for (;;) {
      const one = await step(snapshot, {}, env);
      journal.push(...one.journal);
      writes.push(...one.writes);
      snapshot = one.snapshot;
      if (one.status !== 'running') break;
    }
    expect(all.journal).toEqual(journal);
    expect(all.writes).toEqual(writes);
    expect(all.journal.at(-1)).toMatchObject({ type: 'failed', node: 'sub' });
    expect(all.journal.some((e) => e.type === 'ran' && e.node === 'sub/w')).toBe(false);
    expect(all.writes).toEqual([]);
  });
});

/** Freezes a value and all it holds: any later change to it throws (test modules are strict). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe('what the engine hands out is never changed after', () => {
  // Tokens share generations with the tokens before them and with journal entries (generation.ts),
  // and runToStop changes its own snapshots' counters in place: none of that may reach a snapshot,
  // journal or context once given out. Frozen, any such change throws.
  it('every snapshot, journal and context a run or fire returns stays as it was while the process goes on from it', async () => {
    const f = flow({
      nodes: [
        start(),
        fanout('split'),
        work('a', { a: 'count' }),
        work('b', { b: 'count' }),
        join('both', ['a', 'b']),
        work('tick', { count: 'count + 1' }),
        wait('sleep'),
        end(),
      ],
      edges: [
        ...chain('start', 'tick', 'split'),
        edge('split', 'a'),
        edge('split', 'b'),
        edge('a', 'both'),
        edge('b', 'both'),
        ...chain('both', 'sleep'),
        edge('sleep', 'tick', { when: 'count < 3' }),
        edge('sleep', 'end', { when: 'count >= 3' }),
      ],
    });
    const env = envOf([f]);
    let r = await runToStop(deepFreeze(startSnapshot(f)), deepFreeze({ count: 0 }), env);
    let passes = 0;
    while (r.status === 'waiting') {
      deepFreeze(r);
      const timer = timersOf(r.snapshot, env.flows)[0]!;
      const fired = deepFreeze(
        await fire(r.snapshot, r.context, env, { seq: timer.seq, trigger: timer.trigger }),
      );
      let context = r.context as Record<string, unknown>;
      for (const w of fired.writes) context = { ...context, [w.path]: w.value };
      r = await runToStop(fired.snapshot, deepFreeze(context), env);
      passes++;
    }
    expect(r.status).toBe('done');
    expect(passes).toBe(3);
    // Each pass: tick, the fan-out and its join, and the wait; the wait leads back twice.
    expect(r.context).toEqual({ count: 3, a: 3, b: 3 });
    const each = { tick: 3, split: 3, a: 3, b: 3, both: 3, sleep: 3 };
    expect(r.snapshot.visits).toEqual({ start: 1, ...each, end: 1 });
    expect(r.snapshot.passes).toEqual({ tick: 2 });
  });
});
