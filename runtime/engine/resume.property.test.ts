import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyWrites } from '../../shared/contextWrite.ts';
import { edge, end, fanout, flow, join, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import { contextArb, workspaceArb, type Workspace } from './fixtures/randomFlow.ts';
import type { EngineJournalEntry } from './journal.ts';
import type { EngineEnv } from './run.ts';
import type { Snapshot } from './snapshot.ts';
import {
  fire,
  runToStop,
  startSnapshot,
  statusOf,
  step,
  waitsWithTriggers,
  type EngineStatus,
  type StepResult,
} from './step.ts';
import { timersOf } from './timers.ts';

/**
 * The engine's promise (docs/architecture.md#conventions, property-based tests; docs/format.md#flows, "The snapshot carries the
 * pass counts forward, so a loop and the joins inside it resume in the right generation after any
 * stop" and "The same flow, context and steps always give the same journal"): stopping a process
 * anywhere, writing its snapshot as JSON and reading it back, and resuming from that copy gives the
 * same process as never stopping.
 */

const T0 = Date.UTC(2026, 0, 1);
/**
 * Engine calls (steps and fires) allowed per run: a run that needs more is reported, not hung.
 * Generated processes take 10 calls at the median and about 200 at the 99th percentile; the
 * longest seen in 30,000 took 1,585.
 */
const MAX_CALLS = 5_000;

interface Outcome {
  status: EngineStatus | 'stuck';
  context: unknown;
  visits: Record<string, number>;
  passes: Record<string, number>;
  snapshot: Snapshot;
  journal: EngineJournalEntry[];
}

const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const lookup = (flows: readonly Flow[]): EngineEnv['flows'] => {
  const byId = new Map(flows.map((f) => [f.id, f]));
  return (id) => byId.get(id);
};

/**
 * What wakes a waiting process: usually the earliest timer, with the clock moved to its due time
 * (or, where `plan` says so, past every timer, so that several are overdue at once);
 * where `plan` says so and a wait listens for one, an event instead, at the present time. The
 * choice depends only on the snapshot, the plan and the number of wakes so far, so that two runs
 * of the same process wake it the same way.
 */
function chooseWake(
  snapshot: Snapshot,
  flows: EngineEnv['flows'],
  plan: readonly number[],
  wakes: number,
  now: number,
): { seq: number; trigger: string; payload?: unknown; at: number } | undefined {
  const timers = timersOf(snapshot, flows);
  const events = waitsWithTriggers(snapshot, flows).flatMap((w) =>
    w.triggers.filter((t) => t.event !== undefined).map((t) => ({ seq: w.seq, trigger: t.id })),
  );
  const pick = plan.length > 0 ? plan[wakes % plan.length]! : 0;
  if (events.length > 0 && (timers.length === 0 || pick >= 6)) {
    return { ...events[pick % events.length]!, payload: wakes, at: now };
  }
  const timer = timers[0];
  if (!timer) return undefined;
  // Now and then the clock jumps past several timers at once, as over a stop: they then fall due
  // together and fire one after another, earliest first, at the time reached.
  const at = pick === 5 && timers.length > 1 ? timers[timers.length - 1]!.due : timer.due;
  return { seq: timer.seq, trigger: timer.trigger, at: Math.max(now, at) };
}

const outcome = (
  snapshot: Snapshot,
  status: Outcome['status'],
  rest: Pick<Outcome, 'context' | 'journal'>,
): Outcome => ({
  status,
  visits: snapshot.visits,
  passes: snapshot.passes,
  snapshot,
  ...rest,
});

/** Runs a process to its end without a stop: `runToStop`, then wake it, and again. */
async function runUninterrupted(
  ws: Workspace,
  context0: unknown,
  plan: readonly number[],
): Promise<Outcome> {
  const flows = lookup(ws);
  let snapshot = startSnapshot(ws[0]!);
  let context = context0;
  let now = T0;
  const journal: EngineJournalEntry[] = [];
  for (let wakes = 0; ; wakes++) {
    // The run with stops goes first and is bounded per call, so a runToStop that never stops
    // has been caught there; here the wakes are bounded.
    if (wakes > MAX_CALLS) {
      throw new Error(`the uninterrupted run did not finish within ${MAX_CALLS} wakes`);
    }
    const ran = await runToStop(snapshot, context, { flows, now });
    snapshot = ran.snapshot;
    context = ran.context;
    journal.push(...ran.journal);
    if (ran.status !== 'waiting') return outcome(snapshot, ran.status, { context, journal });
    const wake = chooseWake(snapshot, flows, plan, wakes, now);
    if (!wake) return outcome(snapshot, 'stuck', { context, journal });
    now = wake.at;
    const woke = await fire(snapshot, context, { flows, now }, wake);
    snapshot = woke.snapshot;
    context = applyWrites(context, woke.writes);
    journal.push(...woke.journal);
  }
}

/**
 * Runs the same process one engine call at a time; after every `gaps[i]` calls (cycling through
 * `gaps`) it stops: the snapshot, the context and the flows go through JSON, and it resumes from
 * the copies, as a process read back from storage would.
 */
async function runWithStops(
  ws: Workspace,
  context0: unknown,
  plan: readonly number[],
  gaps: readonly number[],
): Promise<Outcome> {
  let flowList = ws;
  let snapshot = startSnapshot(ws[0]!);
  let context = context0;
  let now = T0;
  let calls = 0;
  let wakes = 0;
  let stops = 0;
  let nextStop = gaps[0] ?? Infinity;
  const journal: EngineJournalEntry[] = [];
  for (;;) {
    const status = statusOf(snapshot);
    if (status === 'done' || status === 'failed') break;
    const flows = lookup(flowList);
    let result: StepResult;
    if (status === 'running') {
      result = await step(snapshot, context, { flows, now });
    } else {
      const wake = chooseWake(snapshot, flows, plan, wakes++, now);
      if (!wake) return outcome(snapshot, 'stuck', { context, journal });
      now = wake.at;
      result = await fire(snapshot, context, { flows, now }, wake);
    }
    snapshot = result.snapshot;
    context = applyWrites(context, result.writes);
    journal.push(...result.journal);
    calls++;
    if (calls > MAX_CALLS) {
      throw new Error(`the run did not finish within ${MAX_CALLS} engine calls`);
    }
    if (calls === nextStop) {
      snapshot = roundTrip(snapshot);
      context = roundTrip(context);
      flowList = roundTrip(flowList);
      stops++;
      nextStop += gaps[stops % gaps.length]!;
    }
  }
  return outcome(snapshot, statusOf(snapshot), { context, journal });
}

const ranEntries = (journal: EngineJournalEntry[]) => journal.filter((e) => e.type === 'ran');

describe('engine: stopping, serialising and resuming a process changes nothing', () => {
  it('generates only valid workspaces', () => {
    fc.assert(
      fc.property(workspaceArb, (ws) => {
        const flows = new Map(ws.map((f) => [f.id, f]));
        for (const f of ws) expect(validateFlow(f, { flows }), f.id).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same context, visits, passes, status and journal as an uninterrupted run', async () => {
    await fc.assert(
      fc.asyncProperty(
        workspaceArb,
        contextArb,
        fc.array(fc.nat(9), { maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 }),
        async (ws, context, plan, gaps) => {
          const flows = new Map(ws.map((f) => [f.id, f]));
          for (const f of ws) expect(validateFlow(f, { flows }), f.id).toEqual([]);

          const resumed = await runWithStops(ws, context, plan, gaps);
          const whole = await runUninterrupted(ws, context, plan);

          expect(whole.status, 'the uninterrupted run ends').not.toBe('stuck');
          expect(resumed.status).toBe(whole.status);
          expect(resumed.context).toStrictEqual(whole.context);
          expect(resumed.visits).toStrictEqual(whole.visits);
          expect(resumed.passes).toStrictEqual(whole.passes);
          expect(ranEntries(resumed.journal)).toStrictEqual(ranEntries(whole.journal));
          expect(resumed.journal).toStrictEqual(whole.journal);
          expect(resumed.snapshot).toStrictEqual(whole.snapshot);
        },
      ),
      // A fixed number of cases on every machine (no time limit, which would quietly run fewer on
      // a slow one). A failure is reported at once with its seed and path, to replay it, without
      // shrinking, which re-runs whole processes for minutes.
      { numRuns: 200, endOnFailure: true },
    );
    // A guard against a hang only: the cases take a few seconds here (docs/decisions.md).
  }, 300_000);
});

describe('engine: the snapshot does not grow with the passes of a loop', () => {
  /**
   * A loop whose passes fan out and join, with a join inside naming a node before the loop (its
   * fact must be kept for every pass) and one after the loop naming a node inside it.
   */
  const PASSES = 1000;
  const looping = flow({
    id: 'looping',
    nodes: [
      start(),
      work('before', { seen: '1' }),
      work('tick', { count: 'count + 1' }),
      fanout('split'),
      work('left', { l: 'count * 2' }),
      work('right', { r: 'count * 3' }),
      join('both', ['left', 'right', 'before']),
      wait('sleep', [{ id: 'hourly', timer: 'PT1H' }]),
      join('after', ['right']),
      end(),
    ],
    edges: [
      edge('start', 'before'),
      edge('before', 'tick'),
      edge('tick', 'split'),
      edge('split', 'left'),
      edge('split', 'right'),
      edge('left', 'both'),
      edge('right', 'both'),
      edge('both', 'sleep'),
      edge('sleep', 'tick', { when: `count <= ${PASSES}` }),
      edge('sleep', 'after', { when: `count > ${PASSES}` }),
      edge('after', 'end'),
    ],
  });

  /** Every number in a JSON value, by its path. */
  function numbers(value: unknown, path = '', out = new Map<string, number>()) {
    if (typeof value === 'number') out.set(path, value);
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) numbers(v, `${path}/${k}`, out);
    }
    return out;
  }

  /** A JSON value with every number written as 0: its shape, without the digits. */
  const shape = (value: unknown) =>
    JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' ? 0 : v));

  it('is as large after 1,000 passes as after one, but for the digits of its counters', async () => {
    expect(validateFlow(looping)).toEqual([]);
    const flows = lookup([looping]);
    let snapshot = startSnapshot(looping);
    let context: unknown = { count: 0 };
    let now = T0;
    const asleep: Record<number, Snapshot> = {};
    // Each wake takes the closing edge once; asleep[n] is the snapshot with n passes begun.
    for (;;) {
      const ran = await runToStop(snapshot, context, { flows, now });
      snapshot = ran.snapshot;
      context = ran.context;
      if (ran.status !== 'waiting') break;
      const passes = snapshot.passes.tick ?? 0;
      if (passes === 1 || passes === PASSES) asleep[passes] = roundTrip(snapshot);
      const [timer] = timersOf(snapshot, flows);
      now = timer!.due;
      const woke = await fire(snapshot, context, { flows, now }, timer!);
      snapshot = woke.snapshot;
      context = applyWrites(context, woke.writes);
    }
    expect(statusOf(snapshot)).toBe('done');
    expect(snapshot.visits.tick).toBe(PASSES + 1);
    const one = asleep[1]!;
    const many = asleep[PASSES]!;
    expect(many.passes.tick).toBe(PASSES);

    // The same records, keys and lists: only numbers differ.
    expect(shape(many)).toBe(shape(one));
    const digits = (n: number) => String(n).length;
    const before = numbers(one);
    const after = numbers(many);
    expect([...after.keys()]).toEqual([...before.keys()]);
    const allowance = [...after].reduce(
      (sum, [path, n]) => sum + Math.max(0, digits(n) - digits(before.get(path)!)),
      0,
    );
    expect(allowance).toBeGreaterThan(0);
    expect(JSON.stringify(many).length - JSON.stringify(one).length).toBeLessThanOrEqual(allowance);
  });
});
