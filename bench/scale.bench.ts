import 'fake-indexeddb/auto';
import { loadavg } from 'node:os';
import { chain, end, flow, minimalFlow, start, wait } from '../shared/fixtures/flows.ts';
import { IdbStore } from '../runtime/store/idbStore.ts';
import { VirtualClock } from '../runtime/supervisor/clock.ts';
import { Supervisor } from '../runtime/supervisor/supervisor.ts';
import { stats, type Stats } from './harness.ts';
import { T0 } from './wakeflow.ts';
import { storeCounts } from '../runtime/store/fixtures/storeCounts.ts';

/**
 * 9. Cost against how many processes exist (issue 13, point 8): the Supervisor on IdbStore on
 * fake-indexeddb, with 500 and with 10,000 processes asleep on a timer due a day later. At each
 * size: a start (a minimal flow run to its end), an event delivered to its one waiter, and the
 * next due time, each timed, with the process records each one read. Flat means the 10,000
 * figures stay near the 500 ones (the indexes of schema 3: by-created, by-waits-for, by-wake).
 *
 * Both workspaces are made first and their samples taken in turns (500 then 10,000, then the
 * other way round), as peers are measured side by side: measured one size after the other, the
 * ratio also compared two moments of a shared machine's load and two states of the heap, and
 * moved from 1.3× to 1.8× between runs of the same code. fake-indexeddb keeps its records in
 * the JavaScript heap: both sizes' records are in it throughout, so each size pays the same for
 * the heap's collection (a browser's database is not in the page's heap at all).
 */

export interface ScalePoint {
  processes: number;
  startMs: Stats;
  eventMs: Stats;
  nextDueMs: Stats;
  /** Process records read by one start, one delivery, one next-due query. */
  reads: { start: number; event: number; nextDue: number };
}

export interface ScaleResult {
  points: ScalePoint[];
  /** The 10,000-process median over the 500 one, per operation. */
  flatness: { start: number; event: number; nextDue: number };
  load: number;
}

const DAY = 86_400_000;
/** Timed rounds at each size, after `WARMUP` rounds that are not counted. */
const SAMPLES = 200;
const WARMUP = 40;

const onPaid = flow({
  id: 'on-paid',
  nodes: [start(), wait('w', [{ id: 'e', event: 'paid' }]), end()],
  edges: chain('start', 'w', 'end'),
});
const sleeper = flow({
  id: 'sleeper',
  nodes: [start(), wait('w', [{ id: 't', timer: 'P1D' }]), end()],
  edges: chain('start', 'w', 'end'),
});

/** A workspace of `processes` processes asleep, ready to be timed (`sampleOnce`). */
async function workspace(processes: number, log: (line: string) => void) {
  const store = await IdbStore.open(`bench-scale-${processes}-${Date.now()}`);
  for (const f of [onPaid, sleeper, minimalFlow('once')]) await store.putFlow(f);
  const supervisor = new Supervisor(store, new VirtualClock(T0));
  const like = await supervisor.start('sleeper', { id: 'first', context: {} });
  const crowd = Array.from({ length: processes - 1 }, (_, i) => ({
    ...like,
    id: `crowd${i}`,
    contextId: `crowd${i}`,
    created: like.created + 1 + i,
    due: T0 + DAY,
  }));
  await store.saveBatch({
    flows: [],
    versions: [],
    contexts: crowd.map((p) => ({ id: p.contextId, version: 0, value: {} })),
    changes: [],
    processes: crowd,
    journal: [],
  });
  log(`scale: ${processes.toLocaleString('en')} processes stored`);
  return {
    processes,
    store,
    supervisor,
    starts: [] as Sample[],
    events: [] as Sample[],
    nexts: [] as Sample[],
  };
}
type Workspace = Awaited<ReturnType<typeof workspace>>;
type Sample = { ms: number; reads: number };

/** One sample of each operation on `w`; sample `i` names its processes. */
async function sampleOnce(w: Workspace, i: number) {
  const { store, supervisor } = w;
  const timed = async (run: () => Promise<unknown>) => {
    const before = storeCounts(store).processReads;
    const t = performance.now();
    await run();
    return { ms: performance.now() - t, reads: storeCounts(store).processReads - before };
  };
  w.starts.push(await timed(() => supervisor.start('once', { id: `once${i}` })));
  await supervisor.start('on-paid', { id: `buyer${i}` });
  w.events.push(await timed(() => supervisor.deliverEvent('paid', {})));
  w.nexts.push(await timed(() => supervisor.nextDue()));
}

function pointOf(w: Workspace): ScalePoint {
  // The first rounds warm the JIT up: they are not counted.
  const kept = (xs: Sample[]) => xs.slice(WARMUP);
  const median = (xs: Sample[]) => stats(kept(xs).map((x) => x.reads)).median;
  const ms = (xs: Sample[]) => stats(kept(xs).map((x) => x.ms));
  return {
    processes: w.processes,
    startMs: ms(w.starts),
    eventMs: ms(w.events),
    nextDueMs: ms(w.nexts),
    reads: { start: median(w.starts), event: median(w.events), nextDue: median(w.nexts) },
  };
}

export async function scaleBench(log: (line: string) => void): Promise<ScaleResult> {
  const load = loadavg()[0]!;
  const small = await workspace(500, log);
  const large = await workspace(10_000, log);
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    // In turns, each size first every other round.
    for (const w of i % 2 === 0 ? [small, large] : [large, small]) await sampleOnce(w, i);
  }
  small.store.close();
  large.store.close();
  const points = [pointOf(small), pointOf(large)];
  const r = (f: (p: ScalePoint) => Stats) => f(points[1]!).median / f(points[0]!).median;
  return {
    points,
    flatness: {
      start: r((p) => p.startMs),
      event: r((p) => p.eventMs),
      nextDue: r((p) => p.nextDueMs),
    },
    load,
  };
}
