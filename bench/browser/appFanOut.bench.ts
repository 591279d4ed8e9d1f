import type { Browser } from '@playwright/test';
import type { Flow, FlowNode } from '../../shared/schema.ts';
import { fanOut } from '../simulateCases.ts';
import { openApp, watchLongTasks } from './appPage.ts';

/**
 * Issue 29.5 in the app (production build, Chromium, real IndexedDB): a process fanning out to
 * 10,000 branches, started from the start form with the default bound on live branches, until
 * its row says done. Measured: the time from the click on Start until then, the longest task
 * the page ran meanwhile (PerformanceObserver `longtask`; the runtime works in its worker, and
 * the page must stay drawable), and the branches the process ran.
 */
export interface AppFanOutResult {
  branches: number;
  ms: number;
  longestTaskMs: number;
  /** Tasks over 50 ms on the page while the process ran. */
  longTasks: number;
  status: string;
}

/** simulateCases' fan-out, on a grid so the canvas lays nothing out, named for the start form. */
function wideFlow(branches: number): Flow {
  const flow = (fanOut(branches).scenario as { flows: Flow[] }).flows[0]!;
  const columns = 100;
  const at = (i: number) => ({ x: (i % columns) * 240, y: 200 + Math.floor(i / columns) * 140 });
  return {
    ...flow,
    id: 'wide',
    name: 'Wide fan-out',
    nodes: flow.nodes.map((n, i): FlowNode => ({ ...n, position: at(i) })),
  };
}

export async function appFanOutBench(
  browser: Browser,
  appDir: string,
  log: (line: string) => void,
  branches = 10_000,
): Promise<AppFanOutResult> {
  const { page, app, close } = await openApp(browser, appDir);
  try {
    log(`app: importing a fan-out of ${branches.toLocaleString('en')} …`);
    const t0 = Date.now();
    // A flow of 10,000 nodes takes longer to import than the expectation's five seconds.
    await app.importFlows('wide.flow.json', wideFlow(branches), 5 * 60_000);
    log(`app: imported in ${Date.now() - t0} ms`);
    // The form is filled before the watch begins, and the start is clicked and waited for with
    // plain selectors: Playwright's role and label queries walk the canvas's 10,000 nodes on
    // the page's thread and would be most of what it does.
    await app.openStartForm();
    await app.startForm.getByLabel('Flow', { exact: true }).selectOption({ label: 'Wide fan-out' });
    const rows = () => page.evaluate(() => document.querySelectorAll('tr[aria-rowindex]').length);
    const before = await rows();
    const watch = await watchLongTasks(page);
    log('app: starting it …');
    const start = Date.now();
    await page.locator('form[aria-label="Start a process"] button[type="submit"]').click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('tr[aria-rowindex]').length > n,
      before,
      { polling: 100, timeout: 10 * 60_000 },
    );
    // The only process, so the first row.
    const id = await page.evaluate(
      () => document.querySelector('tr[aria-rowindex] th button')?.getAttribute('title') ?? '',
    );
    await page.waitForFunction(
      (pid) =>
        ['done', 'failed'].includes(
          document
            .querySelector(`[aria-label="Inspect process ${pid}"]`)
            ?.closest('tr')
            ?.querySelector('.status-pill')?.textContent ?? '',
        ),
      id,
      { polling: 100, timeout: 10 * 60_000 },
    );
    const ms = Date.now() - start;
    const tasks = await watch.read();
    const status = (await app.rowStatus(id).innerText()).trim();
    return {
      branches,
      ms,
      ...tasks,
      status,
    };
  } finally {
    await close();
  }
}
