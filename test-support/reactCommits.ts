import type { Page } from '@playwright/test';

/** What of a React fiber the probes read (React's internals, as React DevTools reads them). */
export interface Fiber {
  tag: number;
  flags: number;
  child: Fiber | null;
  sibling: Fiber | null;
  return: Fiber | null;
  memoizedProps: Record<string, unknown> | null;
}

/** What installReactCommits puts on `window.__wfReact` for the probes installed after it. */
export interface ReactCommits {
  /** Calls `listener` with the root fiber of every commit from now on. */
  onCommit(listener: (root: Fiber) => void): void;
  /** The root fiber of the last commit, if there was one. */
  lastRoot(): Fiber | null;
  /** Whether the fiber runs a component: a function, class, forward ref or simple memo. */
  isComponent(fiber: Fiber): boolean;
  /** Whether the fiber draws a DOM element. */
  isHost(fiber: Fiber): boolean;
  /**
   * A judge of renders, with a memory of its own: called with a fiber and a key that names its
   * place in the tree, it says whether that component rendered in this commit (its fiber is new
   * since the last call for that key and has React's PerformedWork flag, as React DevTools
   * decides it) and remembers the fiber.
   */
  renderJudge(): (key: string, fiber: Fiber) => boolean;
}

/**
 * A minimal React DevTools hook (`__REACT_DEVTOOLS_GLOBAL_HOOK__`, which React calls on every
 * commit, production builds included), installed in the page before its scripts run and shared
 * by the probes that count renders (renderProbe.ts, bench/browser/canvasProbe.ts). Serialized into the page
 * (`page.addInitScript`), so it uses nothing from its module.
 */
export function installReactCommits(): void {
  const COMPONENT_TAGS = [0, 1, 11, 15];
  const HOST = 5;
  const PERFORMED_WORK = 1;
  const listeners: ((root: Fiber) => void)[] = [];
  let last: Fiber | null = null;
  let next = 1;
  const hook = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map<number, unknown>(),
    inject(renderer: unknown) {
      hook.renderers.set(next, renderer);
      return next++;
    },
    onCommitFiberRoot(_id: number, root: { current: Fiber }) {
      last = root.current;
      for (const listener of listeners) listener(root.current);
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onScheduleFiberRoot() {},
    setStrictMode() {},
    checkDCE() {},
  };
  const commits: ReactCommits = {
    onCommit: (listener) => void listeners.push(listener),
    lastRoot: () => last,
    isComponent: (f) => COMPONENT_TAGS.includes(f.tag),
    isHost: (f) => f.tag === HOST,
    renderJudge() {
      const previous = new Map<string, Fiber>();
      return (key, f) => {
        const rendered = previous.get(key) !== f && (f.flags & PERFORMED_WORK) !== 0;
        previous.set(key, f);
        return rendered;
      };
    },
  };
  Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
    value: hook,
    configurable: true,
  });
  Object.defineProperty(window, '__wfReact', { value: commits, configurable: true });
}

// A bundler's name helper (esbuild's `__name`), if it wraps the serialized functions, must exist.
export const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((f) => f);';

/** Adds to the page, before its scripts run, the DevTools hook and then a probe that uses it. */
export async function addReactProbe(
  page: Page,
  probe: (arg: string) => void,
  arg = '',
): Promise<void> {
  await page.addInitScript({ content: NAME_SHIM });
  await page.addInitScript(installReactCommits);
  await page.addInitScript(probe, arg);
}
