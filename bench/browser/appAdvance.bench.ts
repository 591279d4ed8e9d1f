import type { Browser } from '@playwright/test';
import { loopFlow } from '../flows.ts';
import { openApp, watchLongTasks } from './appPage.ts';

/**
 * 7. Issue 17's long history in the app (production build, Chromium, real IndexedDB): a
 * one-minute loop started and inspected, then the clock advanced seven days (10,080 passes)
 * with "Advance clock", as a person does. Measured: from the click until the advance is over
 * (its progress gone), the longest task the page ran meanwhile (PerformanceObserver
 * `longtask`), and the passes the process made.
 */
export interface AppAdvanceResult {
  days: number;
  passes: number;
  ms: number;
  longestTaskMs: number;
  /** Tasks over 50 ms on the page during the advance. */
  longTasks: number;
}

/** The bench's loop with a one-minute timer and a name the start form lists. */
function minuteLoop() {
  const loop = loopFlow(1_000_000_000);
  return {
    ...loop,
    id: 'minute',
    name: 'Minute loop',
    nodes: loop.nodes.map((n) =>
      n.kind === 'continue-after' ? { ...n, on: [{ id: 'minute', timer: 'PT1M' }] } : n,
    ),
  };
}

export async function appAdvanceBench(
  browser: Browser,
  appDir: string,
  log: (line: string) => void,
  days = 7,
): Promise<AppAdvanceResult> {
  const { page, app, close } = await openApp(browser, appDir);
  try {
    await app.importFlows('minute.flow.json', minuteLoop());
    await app.useVirtualTime();
    const id = await app.start('Minute loop', { value: { count: 0 } });
    await app.inspect(id);
    const watch = await watchLongTasks(page);
    log(`app: advancing the inspected one-minute loop by ${days} days …`);
    const start = Date.now();
    await app.startAdvance(`P${days}D`);
    // The button is disabled from the click until the advance ends.
    const advancing = (want: boolean) =>
      page.waitForFunction(
        (w) => {
          const clock = document.querySelector('fieldset[aria-label="Clock"]');
          const button = [...(clock?.querySelectorAll('button') ?? [])].find(
            (b) => b.textContent?.trim() === 'Advance clock',
          );
          return button !== undefined && button.disabled === w;
        },
        want,
        { polling: 20 },
      );
    await advancing(true);
    await advancing(false);
    const ms = Date.now() - start;
    const tasks = await watch.read();
    const wakes = Number(await app.rowWakes(id).innerText());
    return {
      days,
      passes: wakes,
      ms,
      ...tasks,
    };
  } finally {
    await close();
  }
}
