/**
 * What the workbench benchmark installs in the app's page before its scripts run
 * (`page.addInitScript`; serialized, so self-contained). A minimal React DevTools hook counts,
 * per commit, the components that rendered: a component's fiber that is new in this commit and
 * has React's PerformedWork flag, as React DevTools decides it (canvasProbe.ts does the same for
 * nodes). Production builds rename components, so each is named by the element it draws: its
 * first element's aria-label or first class, or, for a component that draws text only (the
 * clock's time, a countdown), the class of the element around it followed by "text".
 */
export function installRenderProbe(): void {
  interface Fiber {
    tag: number;
    flags: number;
    child: Fiber | null;
    sibling: Fiber | null;
    return: Fiber | null;
    memoizedProps: Record<string, unknown> | null;
  }
  const COMPONENT_TAGS = [0, 1, 11, 15];
  const HOST = 5;
  const PERFORMED_WORK = 1;
  const previous = new Map<string, Fiber>();
  let counts = new Map<string, number>();
  let counting = false;
  let lastRoot: Fiber | null = null;

  const hostName = (f: Fiber) => {
    const p = f.memoizedProps ?? {};
    if (typeof p['aria-label'] === 'string') return p['aria-label'] as string;
    if (typeof p.className === 'string' && p.className) return p.className.split(' ')[0]!;
    return '';
  };
  const nameOf = (f: Fiber): string => {
    let down: Fiber | null = f.child;
    while (down && down.tag !== HOST) down = down.child;
    if (down) return hostName(down) || 'element';
    let up: Fiber | null = f.return;
    while (up && (up.tag !== HOST || !hostName(up))) up = up.return;
    return `${up ? hostName(up) : 'root'} text`;
  };
  const walk = (fiber: Fiber | null, path: string, count: boolean) => {
    let i = 0;
    for (let f = fiber; f; f = f.sibling, i++) {
      const key = `${path}/${i}:${f.tag}`;
      if (COMPONENT_TAGS.includes(f.tag)) {
        const rendered = previous.get(key) !== f && (f.flags & PERFORMED_WORK) !== 0;
        previous.set(key, f);
        if (count && rendered) {
          const name = nameOf(f);
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      }
      walk(f.child, key, count);
    }
  };
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
      lastRoot = root.current;
      walk(root.current, '', counting);
    },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onScheduleFiberRoot() {},
    setStrictMode() {},
    checkDCE() {},
  };
  Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
    value: hook,
    configurable: true,
  });
  Object.defineProperty(window, '__wfRenders', {
    value: {
      start() {
        if (lastRoot) walk(lastRoot, '', false);
        counts = new Map();
        counting = true;
      },
      stop(): Record<string, number> {
        counting = false;
        return Object.fromEntries(counts);
      },
    },
    configurable: true,
  });
}

export interface RenderProbe {
  start(): void;
  stop(): Record<string, number>;
}
