import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyWrites } from '../../shared/contextWrite.ts';
import { edge, end, fanout, flow, start, subflow, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { contextArb, workspaceArb } from './fixtures/randomFlow.ts';
import type { EngineJournalEntry } from './journal.ts';
import { LiveIndex, liveIndexOf, type ReadyEntry } from './liveIndex.ts';
import type { EngineEnv, Scope } from './run.ts';
import type { Child, Snapshot } from './snapshot.ts';
import { fire, runToStop, startSnapshot, statusOf, step, type StepResult } from './step.ts';
import { timersOf } from './timers.ts';

/**
 * A step on a snapshot its caller owns keeps what is live across its sub-flows in an index
 * (liveIndex.ts) instead of walking every running sub-flow to find the next token and to count
 * the live branches. Whatever the flows, the index must say what a walk over the snapshot says,
 * and the steps must run what steps on copies run.
 */

const T0 = Date.UTC(2026, 0, 1);

const lookup = (flows: readonly Flow[]): EngineEnv['flows'] => {
  const byId = new Map(flows.map((f) => [f.id, f]));
  return (id) => byId.get(id);
};

/** What an index holds, comparable: the live count and each ready token with where it stands. */
const view = (index: LiveIndex) => ({
  live: index.live,
  ready: index.remaining().map((e: ReadyEntry) => ({
    seq: e.token.seq,
    node: e.token.node,
    at: Array.isArray(e.where)
      ? (e.where as Child[]).map((c) => `${c.node}/`).join('')
      : (e.where as Scope).prefix,
  })),
});

/**
 * Runs a process to its end as a supervisor's run does: the first act on the snapshot given,
 * every later one owned, waking it at its earliest timer. With `check`, after every act the
 * index kept for the snapshot (if one is) is compared with one made afresh from it.
 */
async function run(
  ws: readonly Flow[],
  context0: unknown,
  env: Partial<EngineEnv>,
  owned: boolean,
  check = false,
) {
  const flows = lookup(ws);
  let snapshot: Snapshot = startSnapshot(ws[0]!);
  let context = context0;
  let now = T0;
  const journal: EngineJournalEntry[] = [];
  let indexed = 0;
  for (let acts = 0; acts < 5000; acts++) {
    const status = statusOf(snapshot);
    if (status === 'done' || status === 'failed') break;
    const e = { flows, now, ...env };
    let result: StepResult;
    if (status === 'running') result = await step(snapshot, context, e, owned && acts > 0);
    else {
      const [timer] = timersOf(snapshot, flows);
      if (!timer) break;
      now = Math.max(now, timer.due);
      result = await fire(snapshot, context, { ...e, now }, timer, owned && acts > 0);
    }
    snapshot = result.snapshot;
    context = applyWrites(context, result.writes);
    journal.push(...result.journal);
    // The status a step gives from its index is the one a look through its scopes gives.
    if (check) expect(result.status).toBe(statusOf(snapshot));
    const kept = liveIndexOf(snapshot.scope);
    if (check && kept) {
      indexed++;
      expect(view(kept)).toEqual(view(new LiveIndex(snapshot.scope)));
    }
  }
  return { snapshot, context, journal, indexed };
}

/** A flow that calls itself twice: what is live doubles at every level. */
const forkBomb: Flow = flow({
  id: 'main',
  nodes: [start(), fanout('split'), subflow('a', 'main'), subflow('b', 'main')],
  edges: [edge('start', 'split'), edge('split', 'a'), edge('split', 'b')],
});

describe('engine: what is live across sub-flows, kept as it changes', () => {
  it('rule: a step given another flows lookup runs the flow objects it gives, not those an earlier step knew', async () => {
    const main = flow({
      id: 'main',
      nodes: [start(), subflow('call', 'sub'), end()],
      edges: [edge('start', 'call'), edge('call', 'end')],
    });
    const sub = (value: string): Flow =>
      flow({
        id: 'sub',
        nodes: [start(), work('x', { a: value }), end()],
        edges: [edge('start', 'x'), edge('x', 'end')],
      });
    const before = lookup([main, sub('1')]);
    const after = lookup([main, sub('2')]);
    let result = await step(startSnapshot(main), {}, { flows: before, now: T0 });
    const writes: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      // The sub-flow's start runs under the first lookup; from then on, another one.
      const flows = i < 2 ? before : after;
      result = await step(result.snapshot, {}, { flows, now: T0 }, true);
      writes.push(...result.writes);
    }
    expect(writes).toEqual([{ path: 'a', value: 2 }]);
  });

  it('rule: after every owned step, the index kept equals one made afresh, its status is the snapshot status, and the steps run as steps on copies do', async () => {
    let indexed = 0;
    await fc.assert(
      fc.asyncProperty(
        workspaceArb,
        contextArb,
        // Now and then a bound low enough that a step fails on it, undoing what it changed.
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        async (ws, context, bound) => {
          const env = bound === undefined ? {} : { maxLiveBranches: bound };
          const owned = await run(ws, context, env, true, true);
          const copied = await run(ws, context, env, false);
          indexed += owned.indexed;
          expect(owned.journal).toStrictEqual(copied.journal);
          expect(owned.snapshot).toStrictEqual(copied.snapshot);
          expect(owned.context).toStrictEqual(copied.context);
        },
      ),
      { numRuns: 200, endOnFailure: true },
    );
    // The property looked at indexes, not only at processes without sub-flows.
    expect(indexed).toBeGreaterThan(0);
  }, 300_000);

  it('rule: a flow that calls itself twice fails at the bound at the same step, owned or copied', async () => {
    const env = { maxLiveBranches: 300 };
    const whole = await runToStop(
      startSnapshot(forkBomb),
      {},
      { flows: lookup([forkBomb]), now: T0, ...env },
    );
    const copied = await run([forkBomb], {}, env, false);
    expect(whole.status).toBe('failed');
    expect(whole.snapshot.failed?.message).toContain('more than 300 live branches');
    expect(whole.journal).toStrictEqual(copied.journal);
    expect(whole.snapshot).toStrictEqual(copied.snapshot);
    // runToStop's own steps kept an index: found again for the snapshot they leave.
    const owned = await run([forkBomb], {}, env, true, true);
    expect(owned.indexed).toBeGreaterThan(100);
    expect(owned.journal).toStrictEqual(copied.journal);
  });
});
