import { IdbStore } from '../../runtime/store/idbStore.ts';
import { ResilientStore } from '../../runtime/store/resilientStore.ts';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import { WebLocks } from '../../runtime/supervisor/locks.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import { assertRunnable, loopFlow } from '../flows.ts';
import { T0 } from '../wakeflow.ts';

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

declare global {
  interface Window {
    wakeflowBench: { wakeBench: typeof wakeBench };
  }
}

window.wakeflowBench = { wakeBench };
document.getElementById('status')!.textContent = 'ready';
