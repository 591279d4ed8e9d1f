import { addDuration, parseDuration } from '../../shared/duration.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { Supervisor, SupervisorError, type SupervisorOptions } from '../supervisor/supervisor.ts';
import type { Store } from '../supervisor/store.ts';
import { reportProcesses, type SimulationReport } from '../report/processReport.ts';
import type { Scenario, ScenarioStep } from '../report/scenario.ts';
import { ScriptedCalls } from './scriptedCalls.ts';

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
  const ownStore = store === undefined;
  // The app's Store semantics kept in memory: IndexedDB's cost without its use here
  // (docs/decisions.md, "flow simulate keeps its workspace in memory"). The report reads no
  // journal, so a store of its own keeps none (MemoryStore, `journal`).
  store ??= new MemoryStore({ journal: false });
  const clock = new VirtualClock(scenario.clock);
  // Calls are answered from the scenario, never sent (docs/format.md#scenarios).
  const calls = new ScriptedCalls(scenario, clock);
  const supervisor = new Supervisor(store, clock, {
    ...limits,
    wakeOneByOne,
    // A drive commits once, at its stop, to a store of its own: see docs/decisions.md, "flow
    // simulate commits a run once". A store given (the tests) keeps the app's commits.
    ...(ownStore ? { maxStepsPerCommit: Infinity } : {}),
    calls: calls.options(),
  });
  for (const flow of scenario.flows) await store.putFlow(flow);
  const errors: SimulationReport['errors'] = [];
  for (const [index, step] of scenario.steps.entries()) {
    try {
      await runStep(supervisor, clock, calls, step);
      await supervisor.runAll();
    } catch (e) {
      if (!(e instanceof SupervisorError)) throw e;
      errors.push({ step: index, error: e.message });
    }
  }
  return {
    clock: new Date(clock.now()).toISOString(),
    processes: await reportProcesses(supervisor, calls.log),
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
  calls: ScriptedCalls,
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
    await calls.respond(supervisor, step);
  }
}
