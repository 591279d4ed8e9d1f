import { applyWrites } from '../shared/contextWrite.ts';
import type { Flow } from '../shared/schema.ts';
import type { EngineEnv } from '../runtime/engine/run.ts';
import type { Snapshot } from '../runtime/engine/snapshot.ts';
import { fire, runToStop, startSnapshot, type StepResult } from '../runtime/engine/step.ts';
import { timersOf } from '../runtime/engine/timers.ts';

/**
 * wakeflow's pure engine driven in memory, with no persistence: what a test or a tool does
 * (runtime/engine/step.ts). The flow object is the same on every run, so its model (graph,
 * loops, signature) and its compiled expressions are built once and cached, as in the app.
 */

export const T0 = Date.UTC(2026, 0, 1);

export interface Outcome {
  snapshot: Snapshot;
  context: unknown;
  status: StepResult['status'];
}

export function envOf(flows: readonly Flow[], now = T0): EngineEnv {
  const byId = new Map(flows.map((f) => [f.id, f]));
  return { flows: (id) => byId.get(id), now };
}

/** Starts a process and runs it until it stops (done, asleep or failed). */
export async function runFlow(flow: Flow, context: unknown, env = envOf([flow])): Promise<Outcome> {
  const r = await runToStop(startSnapshot(flow), context, env);
  return { snapshot: r.snapshot, context: r.context, status: r.status };
}

/**
 * Fires the earliest timer of a sleeping process, as the supervisor does when it falls due, and
 * runs the process to its next stop. The clock moves to the timer's due time.
 */
export async function wakeTimer(state: Outcome, env: EngineEnv): Promise<Outcome> {
  const timer = timersOf(state.snapshot, env.flows)[0];
  if (!timer) throw new Error('the process has no timer to fire');
  env.now = timer.due;
  const fired = await fire(state.snapshot, state.context, env, {
    seq: timer.seq,
    trigger: timer.trigger,
  });
  const context = applyWrites(state.context, fired.writes);
  if (fired.status !== 'running')
    return { snapshot: fired.snapshot, context, status: fired.status };
  const r = await runToStop(fired.snapshot, context, env);
  return { snapshot: r.snapshot, context: r.context, status: r.status };
}

/** Runs a process to its end, firing its timer each time it falls asleep. */
export async function runWithTimers(flow: Flow, context: unknown): Promise<Outcome> {
  const env = envOf([flow]);
  let state = await runFlow(flow, context, env);
  while (state.status === 'waiting') state = await wakeTimer(state, env);
  return state;
}
