import 'fake-indexeddb/auto';
import { EventEmitter } from 'node:events';
import { openDB, type IDBPDatabase } from 'idb';
import type { BpmnEngineExecutionState } from 'bpmn-engine';
import { IdbStore } from '../runtime/store/idbStore.ts';
import { VirtualClock } from '../runtime/supervisor/clock.ts';
import { Supervisor } from '../runtime/supervisor/supervisor.ts';
import { assertRunnable, reviewFlow } from './flows.ts';
import { ratio, sideBySide, type Stats } from './harness.ts';
import * as bpmn from './peers/bpmn.ts';
import { T0 } from './wakeflow.ts';

/**
 * 2. The persisted resume cycle: a process asleep at a human wait is loaded from the store,
 * woken with a person's input, run to its next stop (the same wait, one pass later) and saved.
 *
 * Both sides keep their state in IndexedDB on fake-indexeddb, in the same process:
 * - wakeflow: the Supervisor on IdbStore, exactly as the command line runs it
 *   (`submitHuman`: read the process, its flow and its context, check the input, then one
 *   committed transaction per step: the wake, `apply`, and the fall asleep at `review`).
 * - bpmn-engine: the state that `getState()` returns, as JSON in an object store of its own;
 *   a cycle reads it, `recover`s a new engine, `resume`s it, signals the waiting user task,
 *   and once the task waits again saves `getState()`. Two setups are measured: the state as
 *   `getState()` gives it (it embeds the serialized definition, which `recover` parses again),
 *   and, faster, the state saved without its source and recovered on an engine given the
 *   definition parsed once, as wakeflow keeps its flows apart from its snapshots.
 */

export interface ResumeResult {
  /** Cycles per second, by contender. */
  opsPerSec: Record<string, Stats>;
  /** wakeflow's cycles per second divided by each peer's. */
  ratios: Record<string, number>;
  /** Bytes of the stored state of one process (snapshot or getState JSON). */
  stateBytes: Record<string, number>;
}

const INPUT = { approved: true };

async function wakeflowSide() {
  const flow = assertRunnable(reviewFlow());
  const store = await IdbStore.open(`bench-resume-${Date.now()}`);
  await store.putFlow(flow);
  const supervisor = new Supervisor(store, new VirtualClock(T0));
  const started = await supervisor.start(flow.id, { context: { count: 0 } });
  if (started.status !== 'waiting') throw new Error(`wakeflow: ${started.status} after start`);
  const id = started.id;
  return {
    cycle: async () => {
      const record = await supervisor.submitHuman(id, 'review', INPUT);
      if (record.status !== 'waiting') throw new Error(`wakeflow: ${record.status}, not waiting`);
    },
    count: async () => {
      const record = await supervisor.mustGet(id);
      const context = await store.getContext(record.contextId);
      return (context?.value as { count: number }).count;
    },
    stateBytes: async () => JSON.stringify((await supervisor.mustGet(id)).snapshot).length,
    close: () => store.close(),
  };
}

type Kv = IDBPDatabase<{ states: { key: string; value: string } }>;

async function bpmnSide(withSource: boolean) {
  const sourceContext = await bpmn.parseOnce(bpmn.reviewBpmn());
  const db: Kv = await openDB(`bench-bpmn-${withSource}-${Date.now()}`, 1, {
    upgrade: (d) => void d.createObjectStore('states'),
  });
  const id = 'p1';
  const save = async (state: BpmnEngineExecutionState) => {
    if (!withSource) for (const d of state.definitions) delete d.source;
    await db.put('states', JSON.stringify(state), id);
  };

  // Start the process: it runs to the user task and waits there.
  const first = bpmn.newEngine({ sourceContext });
  const listener = new EventEmitter();
  const waiting = new Promise((resolve) => listener.once('wait', resolve));
  await first.execute({ listener, variables: { count: 0 } });
  await waiting;
  await save(await first.getState());

  const cycle = async () => {
    const json = await db.get('states', id);
    if (json === undefined) throw new Error('bpmn: no state');
    const state = JSON.parse(json) as BpmnEngineExecutionState;
    // With the source in the state, `recover` deserializes it; without, it takes the one given.
    const engine = withSource
      ? bpmn.newEngine({}).recover(state)
      : bpmn.newEngine({ sourceContext }).recover(state);
    const events = new EventEmitter();
    const execution = await engine.resume({ listener: events });
    const task = execution.getPostponed().find((api) => api.id === 'review');
    if (!task) throw new Error('bpmn: not waiting at review');
    const next = new Promise((resolve) => events.once('wait', resolve));
    // The input goes where wakeflow's `into` puts it: the process's variables.
    (task.environment.variables as Record<string, unknown>).decision = INPUT;
    task.signal(INPUT);
    await next;
    await save(await engine.getState());
  };
  const stored = async () => JSON.parse((await db.get('states', id))!) as BpmnEngineExecutionState;
  return {
    cycle,
    count: async () => {
      const state = (await stored()) as unknown as {
        definitions: {
          execution: { processes: { environment: { variables: { count: number } } }[] };
        }[];
      };
      return state.definitions[0]!.execution.processes[0]!.environment.variables.count;
    },
    stateBytes: async () => (await db.get('states', id))!.length,
    close: () => db.close(),
  };
}

export async function resumeBench(log: (line: string) => void): Promise<ResumeResult> {
  log('resume: persisted resume cycle …');
  const sides = {
    wakeflow: await wakeflowSide(),
    'bpmn-engine': await bpmnSide(false),
    'bpmn-engine (state with source)': await bpmnSide(true),
  };
  // Each side must really go round: one cycle adds one to the count.
  for (const [name, side] of Object.entries(sides)) {
    const before = await side.count();
    await side.cycle();
    const after = await side.count();
    if (after !== before + 1) throw new Error(`${name}: count went ${before} → ${after}`);
  }
  const result = await sideBySide(
    Object.entries(sides).map(([name, side]) => ({ name, run: side.cycle })),
    { rounds: 15, sliceMs: 200 },
  );
  const ratios: Record<string, number> = {};
  const stateBytes: Record<string, number> = {};
  for (const [name, side] of Object.entries(sides)) {
    stateBytes[name] = await side.stateBytes();
    if (name !== 'wakeflow')
      ratios[name] = ratio(result.perRound.wakeflow!, result.perRound[name]!);
    side.close();
  }
  return { opsPerSec: result.opsPerSec, ratios, stateBytes };
}
