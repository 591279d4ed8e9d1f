/**
 * What an e2e test may ask of the app it opens, by the page's address (`/?test=block`): only the
 * dev server's app reads it (`import.meta.env.DEV`), so the production build cannot be told to
 * do any of it. See docs/decisions.md, "Limits are settings".
 */
export interface TestHooks {
  /**
   * Binds `$block(ms)` in the runtime worker's expressions: one call that keeps the worker busy
   * for `ms` milliseconds of real time and cannot be interrupted, so that a test of the runaway
   * watchdog holds however fast or slow the machine is.
   */
  block?: boolean;
}

/** The hooks a page address asks for; none outside the dev server. */
export function testHooksOf(search: string): TestHooks | undefined {
  if (!import.meta.env.DEV) return undefined;
  const asked = new URLSearchParams(search).getAll('test');
  return asked.includes('block') ? { block: true } : undefined;
}
