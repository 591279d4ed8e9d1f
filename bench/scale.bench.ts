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
 * fake-indexeddb, with 500 and then 10,000 processes asleep on a timer due a day later. At each
 * size: a start (a minimal flow run to its end), an event delivered to its one waiter, and the
 * next due time, each timed, with the process records each one read. Flat means the 10,000
 * figures stay near the 500 ones (the indexes of schema 3: by-created, by-waits-for, by-wake).
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
const SAMPLES = 40;

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

async function point(processes: number, log: (line: string) => void): Promise<ScalePoint> {
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

  const timed = async (run: () => Promise<unknown>) => {
    const before = storeCounts(store).processReads;
    const t = performance.now();
    await run();
    return { ms: performance.now() - t, reads: storeCounts(store).processReads - before };
  };
  const starts: { ms: number; reads: number }[] = [];
  const events: { ms: number; reads: number }[] = [];
  const nexts: { ms: number; reads: number }[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    starts.push(await timed(() => supervisor.start('once', { id: `once${i}` })));
    await supervisor.start('on-paid', { id: `buyer${i}` });
    events.push(await timed(() => supervisor.deliverEvent('paid', {})));
    nexts.push(await timed(() => supervisor.nextDue()));
  }
  store.close();
  const median = (xs: { reads: number }[]) => stats(xs.map((x) => x.reads)).median;
  return {
    processes,
    startMs: stats(starts.map((x) => x.ms)),
    eventMs: stats(events.map((x) => x.ms)),
    nextDueMs: stats(nexts.map((x) => x.ms)),
    reads: { start: median(starts), event: median(events), nextDue: median(nexts) },
  };
}

export async function scaleBench(log: (line: string) => void): Promise<ScaleResult> {
  const load = loadavg()[0]!;
  // A warm-up point, not reported: the first one measured would otherwise pay for the JIT.
  await point(100, () => {});
  const small = await point(500, log);
  const large = await point(10_000, log);
  const r = (f: (p: ScalePoint) => Stats) => f(large).median / f(small).median;
  return {
    points: [small, large],
    flatness: {
      start: r((p) => p.startMs),
      event: r((p) => p.eventMs),
      nextDue: r((p) => p.nextDueMs),
    },
    load,
  };
}
