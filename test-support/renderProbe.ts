import type { Fiber, ReactCommits } from './reactCommits.ts';

/**
 * What the workbench benchmark and e2e/idleRenders.spec.ts install in the app's page before its
 * scripts run, after the DevTools hook of reactCommits.ts (addReactProbe; serialized, so it uses
 * nothing from its module). It counts, per commit, the components that rendered. Production
 * builds rename components, so each is named by the element it draws: its first element's
 * aria-label or first class, or, for a component that draws text only (the clock's time, a
 * countdown), the class of the element around it followed by "text".
 */
export function installRenderProbe(): void {
  const react = (window as unknown as { __wfReact: ReactCommits }).__wfReact;
  const rendered = react.renderJudge();
  let counts = new Map<string, number>();
  let counting = false;

  const hostName = (f: Fiber) => {
    const p = f.memoizedProps ?? {};
    if (typeof p['aria-label'] === 'string') return p['aria-label'];
    if (typeof p.className === 'string' && p.className) return p.className.split(' ')[0]!;
    return '';
  };
  const nameOf = (f: Fiber): string => {
    let down: Fiber | null = f.child;
    while (down && !react.isHost(down)) down = down.child;
    if (down) return hostName(down) || 'element';
    let up: Fiber | null = f.return;
    while (up && (!react.isHost(up) || !hostName(up))) up = up.return;
    return `${up ? hostName(up) : 'root'} text`;
  };
  const walk = (fiber: Fiber | null, path: string, count: boolean) => {
    let i = 0;
    for (let f = fiber; f; f = f.sibling, i++) {
      const key = `${path}/${i}:${f.tag}`;
      if (react.isComponent(f) && rendered(key, f) && count) {
        const name = nameOf(f);
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      walk(f.child, key, count);
    }
  };
  react.onCommit((root) => walk(root, '', counting));
  Object.defineProperty(window, '__wfRenders', {
    value: {
      start() {
        // Note the fibers as they stand, so that the first counted commit compares with them.
        const root = react.lastRoot();
        if (root) walk(root, '', false);
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
