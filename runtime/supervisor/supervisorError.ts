import { describeProblem } from '../../shared/describeProblem.ts';
import { validateFlow, type Problem } from '../../shared/validateFlow.ts';
import type { Flow } from '../../shared/schema.ts';

/** A request the supervisor refuses; nothing was changed. The message says why. */
export class SupervisorError extends Error {}

/**
 * Flows found to have no problems, by object. A flow is never changed in place (an edit is a new
 * object, as for the engine's model in flowModel.ts), so a flow checked once stays runnable: a
 * start checked a flow of 20,000 nodes again each time, which cost more than running it.
 */
const runnable = new WeakSet<Flow>();

/** Refuses flows with problems: a process starts only on flows that can run (docs/format.md#errors). */
export function assertRunnable(flows: ReadonlyMap<string, Flow>): void {
  for (const f of flows.values()) {
    const problems = problemsOf(f);
    if (problems.length > 0) {
      const first = problems.slice(0, 3).map(describeProblem).join('; ');
      throw new SupervisorError(`flow "${f.id}" cannot run until it is fixed: ${first}`);
    }
  }
}

/** The problems that keep `flow` from running (`validateFlow`), none for a flow found runnable. */
export function problemsOf(flow: Flow): readonly Problem[] {
  if (runnable.has(flow)) return [];
  const problems = validateFlow(flow);
  if (problems.length === 0) runnable.add(flow);
  return problems;
}
