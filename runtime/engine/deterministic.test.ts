import { describe, expect, it } from 'vitest';
import { chain, edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { randomAt, seedOf } from '../expr/seeded.ts';
import type { EngineEnv } from './run.ts';
import { fire, runToStop, startSnapshot, step } from './step.ts';

/**
 * docs/format.md#flows: expressions are deterministic. `$now()` and `$millis()` give the time of the step,
 * handed in as data; `$random()` and `$shuffle()` draw from a sequence seeded per process and
 * carried in the snapshot, so the same snapshot, context and input always give the same step.
 */

const T0 = Date.UTC(2026, 0, 1, 12, 30);

const env = (f: ReturnType<typeof flow>, now = T0): EngineEnv => ({
  flows: (id) => (id === f.id ? f : undefined),
  now,
});

describe('rule 5: expressions are deterministic', () => {
  const timed = flow({
    id: 'timed',
    nodes: [start(), work('w', { at: '$now()', ms: '$millis()', y: '$now("[Y0001]")' }), end()],
    edges: chain('start', 'w', 'end'),
  });

  it('$now() and $millis() give the time of the step passed in, not the wall clock', async () => {
    const ran = await runToStop(startSnapshot(timed), {}, env(timed));
    expect(ran.context).toEqual({ at: '2026-01-01T12:30:00.000Z', ms: T0, y: '2026' });
    const later = await runToStop(startSnapshot(timed), {}, env(timed, Date.UTC(1999, 5, 1)));
    expect(later.context).toMatchObject({ at: '1999-06-01T00:00:00.000Z' });
  });

  it('$now() keeps its argument checks: a picture that is not a string fails the node', async () => {
    const bad = flow({
      id: 'bad',
      nodes: [start(), work('w', { at: '$now(5)' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const ran = await runToStop(startSnapshot(bad), {}, env(bad));
    expect(ran.status).toBe('failed');
    expect(ran.snapshot.failed?.message).toMatch(/Argument 1 of function "now"/);
  });

  const rolling = flow({
    id: 'rolling',
    nodes: [
      start(),
      work('roll', { r: '$random()', order: '$shuffle([1, 2, 3, 4, 5, 6, 7, 8])' }),
      work('high', { side: '"high"' }),
      work('low', { side: '"low"' }),
    ],
    edges: [
      edge('start', 'roll'),
      edge('roll', 'high', { when: 'r >= 0.5' }),
      edge('roll', 'low', { when: 'r < 0.5' }),
    ],
  });

  it('$random() and $shuffle() draw from the seed in the snapshot: the same snapshot gives the same step', async () => {
    const seed = seedOf('p1');
    const first = await runToStop(startSnapshot(rolling, seed), {}, env(rolling));
    const again = await runToStop(startSnapshot(rolling, seed), {}, env(rolling));
    expect(again.context).toEqual(first.context);
    expect(again.journal).toEqual(first.journal);
    const { r, order } = first.context as { r: number; order: number[] };
    // Draw 0 of the sequence is r; the shuffle takes the next eight.
    expect(r).toBe(randomAt(seed, 0));
    expect([...order].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(first.snapshot.draws).toBe(9);
    // Another seed draws another sequence.
    const other = await runToStop(startSnapshot(rolling, seedOf('p2')), {}, env(rolling));
    expect((other.context as { r: number }).r).not.toBe(r);
  });

  it('a failed node draws nothing: run again, it draws the same numbers', async () => {
    const flaky = flow({
      id: 'flaky',
      nodes: [
        start(),
        work('w', { r: '$random()', check: 'x = 1 ? r : $error("not yet")' }),
        end(),
      ],
      edges: chain('start', 'w', 'end'),
    });
    const s0 = startSnapshot(flaky, 7);
    const atW = await step(s0, {}, env(flaky));
    const failed = await step(atW.snapshot, { x: 0 }, env(flaky));
    expect(failed.status).toBe('failed');
    expect(failed.snapshot.draws).toBeUndefined();
    const ok = await step(atW.snapshot, { x: 1 }, env(flaky));
    expect(ok.writes[0]).toEqual({ path: 'r', value: randomAt(7, 0) });
  });

  it('the snapshot stays flat: draws are one counter, however many passes drew', async () => {
    const loop = flow({
      id: 'loop',
      nodes: [start(), work('tick', { n: 'n + 1', r: '$random()' }), wait('sleep'), end()],
      edges: [
        ...chain('start', 'tick', 'sleep'),
        edge('sleep', 'tick', { when: 'n < 50' }),
        edge('sleep', 'end', { when: 'n >= 50' }),
      ],
    });
    const e = env(loop);
    let ran = await runToStop(startSnapshot(loop, 3), { n: 0 }, e);
    const sizes: number[] = [];
    let context = ran.context;
    while (ran.status === 'waiting') {
      sizes.push(JSON.stringify(ran.snapshot).length);
      const w = ran.snapshot.scope.waits[0]!;
      const woke = await fire(ran.snapshot, context, e, { seq: w.seq, trigger: 't' });
      ran = await runToStop(woke.snapshot, context, e);
      context = ran.context;
    }
    expect(ran.snapshot.draws).toBe(50);
    // Only digits grow: the seq, the visits, the passes and the draws counter.
    expect(sizes.at(-1)! - sizes[9]!).toBeLessThanOrEqual(6);
  });
});

describe('the seeded sequence', () => {
  it('is in [0, 1), repeatable, and spread evenly', () => {
    const draws = Array.from({ length: 10_000 }, (_, n) => randomAt(42, n));
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true);
    expect(Array.from({ length: 10_000 }, (_, n) => randomAt(42, n))).toEqual(draws);
    const tenths = new Array<number>(10).fill(0);
    for (const d of draws) tenths[Math.floor(d * 10)]!++;
    for (const count of tenths) expect(count).toBeGreaterThan(850);
    expect(new Set(draws).size).toBe(draws.length);
  });
});
