import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edge, end, fanout, flow, join, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { EngineEnv } from './run.ts';
import { waitIndex, type Snapshot, type Wait } from './snapshot.ts';
import { fire, runToStop, startSnapshot, step } from './step.ts';

/**
 * A step given an owned snapshot (runToStop's and a supervisor run's own, from their second act
 * on) changes its scopes' lists and join records in place instead of copying them (run.ts,
 * `append`, `removeAt`, `replace`, `decide`). A node that fails must still leave the snapshot
 * exactly as it was before the step, lists included.
 */
const envOf = (flows: Flow[], extra: Partial<EngineEnv> = {}): EngineEnv => {
  const byId = new Map(flows.map((f) => [f.id, f]));
  return { flows: (id) => byId.get(id), now: 0, ...extra };
};

const withoutFailure = (s: Snapshot) => {
  const { failed: _failed, ...rest } = s;
  return rest;
};

/** start → split → a, b, c, each a wait; c's wake takes an edge whose condition fails. */
const threeWaits = flow({
  nodes: [start(), fanout('split'), wait('a'), wait('b'), wait('c'), work('after', {}), end()],
  edges: [
    edge('start', 'split'),
    edge('split', 'a'),
    edge('split', 'b'),
    edge('split', 'c'),
    edge('a', 'end'),
    edge('b', 'end'),
    edge('c', 'after', { when: 'n + "a"' }),
  ],
});

describe('an owned step changes lists in place, and undoes them when its node fails', () => {
  it('rule: a fire that fails leaves the wait it removed in its place, and every list as it was', async () => {
    const env = envOf([threeWaits]);
    const asleep = await runToStop(startSnapshot(threeWaits), { n: 1 }, env);
    expect(asleep.status).toBe('waiting');
    const c = asleep.snapshot.scope.waits.find((w) => w.node === 'c')!;
    const before = structuredClone(asleep.snapshot);
    const failed = await fire(asleep.snapshot, { n: 1 }, env, { seq: c.seq, trigger: 't' }, true);
    expect(failed.status).toBe('failed');
    expect(failed.snapshot.failed?.path).toBe('c');
    expect(withoutFailure(failed.snapshot)).toEqual(before);
    // The snapshot given is the one whose lists were changed and put back.
    expect(asleep.snapshot).toEqual(before);
  });

  it('rule: a step that fails after queueing its targets (too many live branches) takes them off again', async () => {
    const f = flow({
      nodes: [start(), fanout('split'), work('x', {}), work('y', {}), work('z', {}), end()],
      edges: [
        edge('start', 'split'),
        edge('split', 'x'),
        edge('split', 'y'),
        edge('split', 'z'),
        edge('x', 'end'),
        edge('y', 'end'),
        edge('z', 'end'),
      ],
    });
    const env = envOf([f], { maxLiveBranches: 2 });
    const first = await step(startSnapshot(f), {}, env);
    expect(first.snapshot.scope.ready.map((t) => t.node)).toEqual(['split']);
    const before = structuredClone(first.snapshot);
    const failed = await step(first.snapshot, {}, env, true);
    expect(failed.status).toBe('failed');
    expect(failed.snapshot.failed?.path).toBe('split');
    expect(withoutFailure(failed.snapshot)).toEqual(before);
  });

  it('rule: a step that fails after deciding a join puts the join back undecided', async () => {
    // a completes last: the join is decided and queued, with the arrival that follows, past 2.
    const f = flow({
      nodes: [
        start(),
        fanout('split'),
        work('a', {}),
        work('b', {}),
        join('both', ['a', 'b']),
        work('c', {}),
        work('d', {}),
        end(),
      ],
      edges: [
        edge('start', 'split'),
        edge('split', 'b'),
        edge('split', 'a'),
        edge('a', 'both'),
        edge('a', 'c'),
        edge('a', 'd'),
        edge('b', 'both'),
        edge('both', 'end'),
        edge('c', 'end'),
        edge('d', 'end'),
      ],
    });
    const env = envOf([f], { maxLiveBranches: 2 });
    let s = startSnapshot(f);
    // start, split, b: then a is the one ready, and the join stands undecided.
    for (let i = 0; i < 3; i++) s = (await step(s, {}, env)).snapshot;
    expect(s.scope.ready.map((t) => t.node)).toEqual(['a']);
    expect(s.scope.joins).toEqual([{ node: 'both', gen: [], decided: false }]);
    const before = structuredClone(s);
    const failed = await step(s, {}, env, true);
    expect(failed.snapshot.failed?.path).toBe('a');
    expect(withoutFailure(failed.snapshot)).toEqual(before);
    expect(s.scope.joins[0]!.decided).toBe(false);
  });

  it('an owned step hands out a new snapshot object each time, around the scopes it changed', async () => {
    const env = envOf([threeWaits]);
    const first = await step(startSnapshot(threeWaits), {}, env);
    const second = await step(first.snapshot, {}, env, true);
    expect(second.snapshot).not.toBe(first.snapshot);
    expect(second.snapshot.scope).toBe(first.snapshot.scope);
  });
});

describe('waitIndex finds a wait by its number in a list in order of numbers', () => {
  it('property: it answers as a look through the list does, for any list in order', () => {
    const wait = (seq: number): Wait => ({ node: `w${seq}`, gen: [], seq, since: 0 });
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 60 }),
        fc.integer({ min: -5, max: 505 }),
        (numbers, seq) => {
          const waits = [...numbers].sort((a, b) => a - b).map(wait);
          expect(waitIndex(waits, seq)).toBe(waits.findIndex((w) => w.seq === seq));
        },
      ),
    );
  });
});
