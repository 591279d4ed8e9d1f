import { addDuration, parseDuration } from '../../shared/duration.ts';
import type { FlowChange } from '../../shared/flowDiff.ts';
import { timersOf, waitDue } from '../engine/timers.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { liveWaits } from '../supervisor/pendingWakes.ts';
import type { ProcessStatus } from '../supervisor/records.ts';
import { Supervisor, SupervisorError, type SupervisorOptions } from '../supervisor/supervisor.ts';
import type { Store } from '../supervisor/store.ts';
import type { Scenario, ScenarioStep } from './scenario.ts';

/** The report of docs/format.md#scenarios. */
export interface SimulationReport {
  clock: string;
  processes: Record<string, ProcessReport>;
  errors: { step: number; error: string }[];
}

export interface ProcessReport {
  flow: string;
  status: ProcessStatus;
  waits: { node: string; triggers: string[]; due: string | null }[];
  visits: Record<string, number>;
  passes: Record<string, number>;
  changes: FlowChange[];
  error: string | null;
  snapshotBytes: number;
  context: unknown;
}

/**
 * Runs a scenario on the real supervisor and engine with a virtual clock. A step that cannot be
 * done is reported in `errors` and changes nothing; the scenario goes on.
 */
export async function simulate(
  scenario: Scenario,
  store?: Store,
  /**
   * The supervisor's limits, for tests that reach them quickly; else the scenario's own bound on
   * live branches (`maxLiveBranches`), else the defaults.
   */
  limits: Pick<SupervisorOptions, 'maxLiveBranches' | 'maxStepsPerRun'> = scenarioLimits(scenario),
  /**
   * Whether an advance wakes one process at a time (SupervisorOptions): by default with a store
   * of its own, which nothing else runs on; the batches of the app's runtime with a given one.
   */
  wakeOneByOne = store === undefined,
): Promise<SimulationReport> {
  // The app's Store semantics kept in memory: IndexedDB's cost without its use here
  // (docs/decisions.md, "flow simulate keeps its workspace in memory"). The report reads no
  // journal, so a store of its own keeps none (MemoryStore, `journal`).
  store ??= new MemoryStore({ journal: false });
  const clock = new VirtualClock(scenario.clock);
  const supervisor = new Supervisor(store, clock, { ...limits, wakeOneByOne });
  for (const flow of scenario.flows) await store.putFlow(flow);
  const errors: SimulationReport['errors'] = [];
  for (const [index, step] of scenario.steps.entries()) {
    try {
      await runStep(supervisor, clock, step);
      await supervisor.runAll();
    } catch (e) {
      if (!(e instanceof SupervisorError)) throw e;
      errors.push({ step: index, error: e.message });
    }
  }
  return {
    clock: new Date(clock.now()).toISOString(),
    processes: await reportProcesses(supervisor),
    errors,
  };
}

function scenarioLimits(scenario: Scenario): Pick<SupervisorOptions, 'maxLiveBranches'> {
  return scenario.maxLiveBranches === undefined
    ? {}
    : { maxLiveBranches: scenario.maxLiveBranches };
}

async function runStep(
  supervisor: Supervisor,
  clock: VirtualClock,
  step: ScenarioStep,
): Promise<void> {
  if ('start' in step) {
    await supervisor.start(step.start, {
      id: step.as,
      ...(step.context !== undefined ? { context: step.context } : {}),
      ...(step.shareContextWith !== undefined ? { shareContextWith: step.shareContextWith } : {}),
    });
  } else if ('advance' in step) {
    const target = addDuration(clock.now(), parseDuration(step.advance)!);
    await supervisor.advanceTo(target);
  } else if ('event' in step) {
    await supervisor.deliverEvent(step.event, step.payload, step.to);
  } else if ('human' in step) {
    await supervisor.submitHuman(step.human, step.node, step.input, step.trigger);
  } else if ('setContext' in step) {
    await supervisor.setContext(step.setContext, step.path, step.value);
  } else if ('replaceFlow' in step) {
    await supervisor.store.putFlow(step.replaceFlow);
  } else if ('resolve' in step) {
    await supervisor.resolve(step.resolve, step.choice);
  } else if ('stop' in step) {
    await supervisor.stop(step.stop);
  } else if ('resume' in step) {
    await supervisor.resume(step.resume);
  } else if ('retry' in step) {
    await supervisor.retry(step.retry);
  } else {
    // Read and checked with the scenario; answering it is the call sender's (docs/format.md#scenarios).
    throw new Error(
      `respond: ${JSON.stringify(step.respond)} has no call this runtime answers yet`,
    );
  }
}

export async function reportProcesses(
  supervisor: Supervisor,
): Promise<Record<string, ProcessReport>> {
  const store = supervisor.store;
  const out: Record<string, ProcessReport> = {};
  for (const p of await store.listProcesses()) {
    // Waits are read from the versions the process fell asleep on, even if the flow changed since.
    const flows = await supervisor.sleptOn(p);
    const lookup = (id: string) => flows.get(id);
    const timers = timersOf(p.snapshot, lookup);
    const context = await store.getContext(p.contextId);
    out[p.id] = {
      flow: p.flow,
      status: p.status,
      waits: liveWaits(p, lookup).map((w) => {
        const due = waitDue(timers, w.seq);
        return {
          node: w.path,
          triggers: w.triggers.map((t) => t.id),
          due: due === null ? null : new Date(due).toISOString(),
        };
      }),
      visits: p.snapshot.visits,
      passes: p.snapshot.passes,
      changes: p.changes,
      error: p.error,
      snapshotBytes: JSON.stringify(p.snapshot).length,
      context: context?.value ?? null,
    };
  }
  return out;
}
