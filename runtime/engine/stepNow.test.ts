import { describe, expect, it } from 'vitest';
import { chain, edge, end, fanout, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { EngineEnv } from './run.ts';
import { fire, fireNow, startSnapshot, step, stepNow } from './step.ts';

/**
 * `stepNow` and `fireNow` give a step's result as a value when the step needed no awaiting, so
 * that a supervisor's run of many acts pays no promise per act; the result is `step`'s.
 */
const envOf = (f: Flow): EngineEnv => ({ flows: (id) => (id === f.id ? f : undefined), now: 0 });

describe('an act that needed no awaiting is handed back as a value (stepNow, fireNow)', () => {
  it('rule: a step whose expressions the shortcut answers is a value, equal to what step gives', async () => {
    const f = flow({
      nodes: [start(), work('w', { n: 'n + 1' }), wait('sleep'), end()],
      edges: chain('start', 'w', 'sleep', 'end'),
    });
    const env = envOf(f);
    let s = startSnapshot(f);
    for (let i = 0; i < 3; i++) {
      const now = stepNow(s, { n: 1 }, env);
      expect(now).not.toBeInstanceOf(Promise);
      expect(now).toEqual(await step(s, { n: 1 }, env));
      s = (now as Awaited<ReturnType<typeof step>>).snapshot;
    }
    const w = s.scope.waits[0]!;
    const fired = fireNow(s, { n: 2 }, env, { seq: w.seq, trigger: 't' });
    expect(fired).not.toBeInstanceOf(Promise);
    expect(fired).toEqual(await fire(s, { n: 2 }, env, { seq: w.seq, trigger: 't' }));
  });

  it('a step that jsonata must evaluate is a promise of the same result', async () => {
    const f = flow({
      nodes: [start(), work('w', { s: '$uppercase("a")' }), end()],
      edges: chain('start', 'w', 'end'),
    });
    const env = envOf(f);
    const first = await step(startSnapshot(f), {}, env);
    const now = stepNow(first.snapshot, {}, env);
    expect(now).toBeInstanceOf(Promise);
    expect(await now).toEqual(await step(first.snapshot, {}, env));
  });
});

describe('the next token is the one that became ready first', () => {
  // A split into three work nodes: their tokens are queued a, b, c, numbered in that order.
  const f = flow({
    nodes: [start(), fanout('split'), work('a', {}), work('b', {}), work('c', {}), end()],
    edges: [...chain('start', 'split'), edge('split', 'a'), edge('split', 'b'), edge('split', 'c')],
  });
  const env = envOf(f);
  const ranIn = (journal: { type: string; node?: string }[]) =>
    journal.filter((e) => e.type === 'ran').map((e) => e.node);

  it('rule: queued in order, the first queued runs first', async () => {
    let s = startSnapshot(f);
    for (let i = 0; i < 2; i++) s = (await step(s, {}, env)).snapshot;
    expect(s.scope.ready.map((t) => t.node)).toEqual(['a', 'b', 'c']);
    expect(ranIn((await step(s, {}, env)).journal)).toEqual(['a']);
  });

  it('rule: a ready list out of order (a snapshot written by hand) still runs the lowest number first', async () => {
    let s = startSnapshot(f);
    for (let i = 0; i < 2; i++) s = (await step(s, {}, env)).snapshot;
    const reversed = { ...s, scope: { ...s.scope, ready: [...s.scope.ready].reverse() } };
    expect(reversed.scope.ready.map((t) => t.node)).toEqual(['c', 'b', 'a']);
    const order: (string | undefined)[] = [];
    let next = reversed;
    for (let i = 0; i < 3; i++) {
      const r = await step(next, {}, env, i > 0);
      order.push(...ranIn(r.journal));
      next = r.snapshot;
    }
    expect(order).toEqual(['a', 'b', 'c']);
  });
});
