import { bindFunctionForTests } from '../../runtime/expr/evaluate.ts';
import type { TestHooks } from './testHooks.ts';

/**
 * Installs in the runtime worker the hooks a test asked for (testHooks.ts); nothing outside the
 * dev server. Kept apart from testHooks.ts so that the page's bundle does not load JSONata.
 */
export function installTestHooks(
  hooks: TestHooks | undefined,
  /** Real time, as the worker reads it; a unit test passes its own. */
  now: () => number = () => Date.now(),
): void {
  if (!import.meta.env.DEV || !hooks?.block) return;
  bindFunctionForTests('block', (ms: number) => {
    const until = now() + ms;
    while (now() < until) {
      // Busy on purpose: nothing else in this thread runs until the call returns.
    }
    return ms;
  });
}
