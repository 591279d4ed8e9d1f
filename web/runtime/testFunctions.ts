import type { ExtraFunctions } from '../../runtime/expr/evaluate.ts';
import type { TestHooks } from './testHooks.ts';

/**
 * The functions the runtime worker's expressions may call for the hooks a test asked for
 * (testHooks.ts), handed to the supervisor, which gives them to the engine in its environment:
 * nothing is bound outside the dev server, and nothing is bound for a module's lifetime.
 * Kept apart from testHooks.ts, which the page loads, since these run in the worker.
 */
export function testFunctions(
  hooks: TestHooks | undefined,
  /** Real time, as the worker reads it; a unit test passes its own. */
  now: () => number = () => Date.now(),
): ExtraFunctions | undefined {
  if (!import.meta.env.DEV || !hooks?.block) return undefined;
  return {
    block: (ms: number) => {
      const until = now() + ms;
      while (now() < until) {
        // Busy on purpose: nothing else in this thread runs until the call returns.
      }
      return ms;
    },
  };
}
