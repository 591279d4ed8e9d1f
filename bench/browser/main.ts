import { IdbStore } from '../../runtime/store/idbStore.ts';
import { ResilientStore } from '../../runtime/store/resilientStore.ts';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import { WebLocks } from '../../runtime/supervisor/locks.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import { RUN_SLICE_MS } from '../../runtime/supervisor/limits.ts';
import { timeSlices } from '../../runtime/supervisor/timeSlices.ts';
import { DEFAULT_KEEP_PASSES } from '../../web/runtime/journalRetention.ts';
import type { Flow } from '../../shared/schema.ts';
import { assertRunnable, loopFlow } from '../flows.ts';
import { fanOut } from '../simulateCases.ts';
import { T0 } from '../wakeflow.ts';
import { runCallsFromAddress } from './callsPage.ts';

/**
 * A bench-only page: the web app's runtime, wired as `web/runtime/createRuntime.ts` wires it
 * (IdbStore on the browser's real IndexedDB, wrapped in the ResilientStore, Web Locks per
 * process), with one difference: a virtual clock, so that the benchmark decides when the
 * timers fall due. `wakeAll` is the app's `wakeDue`: flush, wake every due process, run all.
 */

const HOUR = 3_600_000;

export interface WakeRound {
  woken: number;
  ms: number;
}

export interface WakeBenchResult {
  processes: number;
  setupMs: number;
  /** The untimed first round, when there was one. */
  warmup: WakeRound | null;
  rounds: WakeRound[];
  /** Duration of each step's transaction (`commitStep`) during the timed rounds, ms. */
  commitMs: number[];
  /** Committed steps per wake: the fired trigger, the work node, the fall asleep. */
  stepsPerWake: number;
}

async function wakeBench(
  processes: number,
  rounds: number,
  warmupRound: boolean,
): Promise<WakeBenchResult> {
  const idb = await IdbStore.open(`bench-wake-${Date.now()}`);
  const commitMs: number[] = [];
  let timing = false;
  const commitStep = idb.commitStep.bind(idb);
  idb.commitStep = async (commit) => {
    const start = performance.now();
    try {
      return await commitStep(commit);
    } finally {
      if (timing) commitMs.push(performance.now() - start);
    }
  };
  const store = new ResilientStore(idb);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, { locks: new WebLocks(navigator.locks) });
  const flow = assertRunnable(loopFlow(1_000_000_000));
  await store.putFlow(flow);

  // One process started by the supervisor; the others are copies of it written in one batch
  // (each with its own id and context), which is the state that starting each would leave but
  // takes a moment rather than the minutes of a thousand starts.
  const setupStart = performance.now();
  const first = await supervisor.start(flow.id, { context: { count: 0 } });
  if (first.status !== 'waiting') throw new Error(`process ${first.id} is ${first.status}`);
  const firstContext = await idb.getContext(first.contextId);
  if (!firstContext) throw new Error('the first process has no context');
  const copies = Array.from({ length: processes - 1 }, (_, i) => ({
    process: {
      ...first,
      id: `bench-p${i}`,
      contextId: `bench-c${i}`,
      created: first.created + i + 1,
    },
    context: { ...firstContext, id: `bench-c${i}` },
  }));
  await idb.saveBatch({
    flows: [],
    versions: [],
    contexts: copies.map((c) => c.context),
    changes: [],
    processes: copies.map((c) => c.process),
    journal: [],
  });
  const setupMs = performance.now() - setupStart;

  const wakeAll = async (round: number): Promise<WakeRound> => {
    // Every process sleeps one hour per pass: moving the clock an hour makes all of them due.
    clock.set(T0 + round * HOUR);
    const start = performance.now();
    await store.flush();
    const woken = await supervisor.wakeDue();
    await supervisor.runAll();
    const ms = performance.now() - start;
    if (woken !== processes) throw new Error(`woke ${woken} of ${processes}`);
    return { woken, ms };
  };

  const warmup = warmupRound ? await wakeAll(1) : null;
  const firstTimed = warmupRound ? 2 : 1;
  timing = true;
  const timed: WakeRound[] = [];
  for (let r = 0; r < rounds; r++) timed.push(await wakeAll(firstTimed + r));
  timing = false;
  idb.close();
  return {
    processes,
    setupMs,
    warmup,
    rounds: timed,
    commitMs,
    stepsPerWake: commitMs.length / (rounds * processes),
  };
}

export interface AdvanceBenchResult {
  passes: number;
  ms: number;
  /** The longest task the page ran meanwhile (PerformanceObserver `longtask`), ms; 0 if none. */
  longestTaskMs: number;
  longTasks: number;
}

/**
 * Issue 17's long history: a process of a one-minute loop on real IndexedDB, the virtual clock
 * advanced seven days (10,080 passes) through `advanceTo`, as the app's clock control does (the
 * retention rule's `keepPasses` included), but on this page's main thread (the app runs it in its worker): the time it takes, and how long
 * the page was kept from drawing, as long tasks.
 */
async function advanceBench(days: number): Promise<AdvanceBenchResult> {
  const idb = await IdbStore.open(`bench-advance-${Date.now()}`);
  const store = new ResilientStore(idb);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, { locks: new WebLocks(navigator.locks) });
  const minute = assertRunnable({
    ...loopFlow(1_000_000_000),
    id: 'minute',
    nodes: loopFlow(1_000_000_000).nodes.map((n) =>
      n.kind === 'continue-after' ? { ...n, on: [{ id: 'minute', timer: 'PT1M' }] } : n,
    ),
  });
  await store.putFlow(minute);
  const p = await supervisor.start(minute.id, { context: { count: 0 } });
  // As the app's worker calls it (web/runtime/workerRuntime.ts): with the journal's retention
  // rule applied in memory, at the number of passes a workspace keeps unless told otherwise.
  const advanced = await watchTasks(() =>
    supervisor.advanceTo(T0 + days * 24 * HOUR, { keepPasses: DEFAULT_KEEP_PASSES }),
  );
  const context = await idb.getContext(p.contextId);
  const passes = (context?.value as { count: number }).count - 1;
  idb.close();
  return {
    passes,
    ms: advanced.ms,
    longestTaskMs: advanced.longestTaskMs,
    longTasks: advanced.longTasks,
  };
}

export interface FanOutBenchResult {
  branches: number;
  status: string;
  ms: number;
  /** The longest task the page ran meanwhile (PerformanceObserver `longtask`), ms; 0 if none. */
  longestTaskMs: number;
  longTasks: number;
  /**
   * The same for the first start of the flow, before the timed one: it also checks the flow of
   * 10,000 nodes and builds its model and signature, once per flow, each in one task.
   */
  firstStart: { ms: number; longestTaskMs: number };
}

/**
 * Issue 29.5: a process fanning out to `branches` branches into one join, started on real
 * IndexedDB with the default bound on live branches, on this page's main thread (the app runs
 * it in its worker) and sliced as the worker slices its runs: the time until it is done, and
 * how long the runtime kept the page from drawing, as long tasks. Timed on the flow's second
 * start, as the wake rounds are timed warm; the first is reported beside.
 */
async function fanOutBench(branches: number): Promise<FanOutBenchResult> {
  const idb = await IdbStore.open(`bench-fanout-${Date.now()}`);
  const store = new ResilientStore(idb);
  // The pause between steps the app's worker gives its supervisor (web/runtime/workerRuntime.ts).
  const supervisor = new Supervisor(store, new VirtualClock(T0), {
    locks: new WebLocks(navigator.locks),
    betweenSteps: timeSlices(RUN_SLICE_MS),
  });
  const flow = assertRunnable((fanOut(branches).scenario as { flows: Flow[] }).flows[0]!);
  await store.putFlow(flow);
  const first = await watchTasks(() => supervisor.start(flow.id, { context: {} }));
  const timed = await watchTasks(() => supervisor.start(flow.id, { context: {} }));
  idb.close();
  return {
    branches,
    status: timed.result.status,
    ms: timed.ms,
    longestTaskMs: timed.longestTaskMs,
    longTasks: timed.longTasks,
    firstStart: { ms: first.ms, longestTaskMs: first.longestTaskMs },
  };
}

/** Runs `work`, with the page's long tasks meanwhile (PerformanceObserver `longtask`). */
async function watchTasks<T>(work: () => Promise<T>) {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push(e.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  // Long tasks are reported after they end: give the observer a turn.
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  return {
    result,
    ms,
    longestTaskMs: tasks.length > 0 ? Math.max(...tasks) : 0,
    longTasks: tasks.length,
  };
}

declare global {
  interface Window {
    wakeflowBench: {
      wakeBench: typeof wakeBench;
      advanceBench: typeof advanceBench;
      fanOutBench: typeof fanOutBench;
    };
  }
}

window.wakeflowBench = { wakeBench, advanceBench, fanOutBench };
document.getElementById('status')!.textContent = 'ready';
// The calls section opens this page in a Chromium of its own, its parameters in the address.
runCallsFromAddress(location.search);
