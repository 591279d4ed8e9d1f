/**
 * A test's way to make one panel fail to render (`/?test=fail-panel:Journal`), on the dev server
 * alone, like the other hooks (web/runtime/testHooks.ts): it proves that a render error is held
 * by that panel's boundary. It fails on every render until that panel is reloaded, since React
 * renders again once after an error before it gives up to the boundary.
 */
const PREFIX = 'fail-panel:';

let armed: string | undefined = import.meta.env.DEV
  ? new URLSearchParams(globalThis.location?.search ?? '')
      .getAll('test')
      .find((t) => t.startsWith(PREFIX))
      ?.slice(PREFIX.length)
  : undefined;

/** Throws when a test asked this panel to fail. */
export function tripIfAsked(panel: string): void {
  if (armed === panel) throw new Error(`the ${panel} panel was asked to fail (a test hook)`);
}

/** Reloading a panel disarms it: the test then sees it come back. */
export function disarm(panel: string): void {
  if (armed === panel) armed = undefined;
}
