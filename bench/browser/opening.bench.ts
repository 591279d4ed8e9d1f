import { loadavg } from 'node:os';
import type { Browser } from '@playwright/test';
import { chain, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { seedWorkspace, sleepingRecords, WORKSPACE_DB as DB } from './seedProcesses.ts';
import { serve } from './serve.ts';

/**
 * 10. Opening the app with 10,000 processes due (issue 13: "the app opens with them due in
 * under 2 s of blocked page"). The built app is opened once (it creates its database), 10,000
 * processes asleep on a timer that fell due a minute ago are written into that database, and
 * the app is opened again; for WINDOW_MS from then, every long task of the page's main thread
 * (PerformanceObserver `longtask`: over 50 ms) is noted. Blocked time is their sum; the worker
 * wakes the processes meanwhile, and how many are still due at the end is counted. The same
 * opening of an empty workspace is measured first, as the figure to set it against.
 */

export interface OpeningResult {
  processes: number;
  windowMs: number;
  /** The sum of the page's long tasks in the window, ms. */
  blockedMs: number;
  longestTaskMs: number;
  longTasks: number;
  /** From opening to the first process shown in the table, ms (null if none was). */
  listedMs: number | null;
  /** Processes still due when the window closed. */
  stillDue: number;
  load: number;
  /**
   * The same opening of an empty workspace, just before: what the app's own start blocks,
   * so that what the due processes add is the difference.
   */
  empty?: { blockedMs: number; longestTaskMs: number; longTasks: number };
}

const WINDOW_MS = 20_000;

const sleeper = flow({
  id: 'bench-sleeper',
  name: 'Bench sleeper',
  nodes: [start(), wait('w', [{ id: 't', timer: 'PT1M' }]), work('note', { woke: 'true' }), end()],
  edges: chain('start', 'w', 'note', 'end'),
});

export async function openingBench(
  browser: Browser,
  appDir: string,
  log: (line: string) => void,
  processes = 10_000,
): Promise<OpeningResult> {
  const server = await serve(appDir);
  try {
    const empty = await openOnce(browser, server.url, 0, log);
    const full = await openOnce(browser, server.url, processes, log);
    return {
      ...full,
      empty: {
        blockedMs: empty.blockedMs,
        longestTaskMs: empty.longestTaskMs,
        longTasks: empty.longTasks,
      },
    };
  } finally {
    await server.close();
  }
}

async function openOnce(
  browser: Browser,
  url: string,
  processes: number,
  log: (line: string) => void,
): Promise<OpeningResult> {
  const load = loadavg()[0]!;
  const context = await browser.newContext({
    baseURL: url,
    viewport: { width: 1400, height: 900 },
  });
  try {
    // Asleep on a PT1M timer since two minutes ago: due a minute ago.
    await seedWorkspace(
      context,
      await sleepingRecords(sleeper, processes, Date.now() - 2 * 60_000),
    );
    log(`opening: ${processes.toLocaleString('en')} due processes written; opening the app`);

    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.addInitScript(() => {
      const tasks: number[] = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
      Object.defineProperty(window, '__longTasks', { value: tasks });
    });
    const opened = Date.now();
    await page.goto('/');
    let listedMs: number | null = null;
    try {
      await page.getByText('bench-p', { exact: false }).first().waitFor({ timeout: WINDOW_MS });
      listedMs = Date.now() - opened;
    } catch {
      listedMs = null;
    }
    // The rest of the window: the measurement runs for a fixed time, whatever happens in it.
    await page.waitForTimeout(Math.max(0, WINDOW_MS - (Date.now() - opened)));
    const tasks = await page.evaluate(() =>
      (window as unknown as { __longTasks: number[] }).__longTasks.slice(),
    );
    const stillDue = await page.evaluate(async (name) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const index = db.transaction('processes').objectStore('processes').index('by-wake');
      const range = IDBKeyRange.bound(
        ['waiting', -Infinity, -Infinity],
        ['waiting', Date.now(), Infinity],
      );
      const n = await new Promise<number>((resolve) => {
        const r = index.count(range);
        r.onsuccess = () => resolve(r.result);
      });
      db.close();
      return n;
    }, DB);
    return {
      processes,
      windowMs: WINDOW_MS,
      blockedMs: tasks.reduce((a, b) => a + b, 0),
      longestTaskMs: Math.max(0, ...tasks),
      longTasks: tasks.length,
      listedMs,
      stillDue,
      load,
    };
  } finally {
    await context.close();
  }
}
