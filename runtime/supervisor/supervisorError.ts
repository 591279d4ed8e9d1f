import { describeProblem } from '../../shared/describeProblem.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import type { Flow } from '../../shared/schema.ts';

/** A request the supervisor refuses; nothing was changed. The message says why. */
export class SupervisorError extends Error {}

/** Refuses flows with problems: a process starts only on flows that can run (docs/format.md#errors). */
export function assertRunnable(flows: ReadonlyMap<string, Flow>): void {
  for (const f of flows.values()) {
    const problems = validateFlow(f);
    if (problems.length > 0) {
      const first = problems.slice(0, 3).map(describeProblem).join('; ');
      throw new SupervisorError(`flow "${f.id}" cannot run until it is fixed: ${first}`);
    }
  }
}
