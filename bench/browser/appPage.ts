import type { Browser, Page } from '@playwright/test';
import { InspectorPage } from '../../e2e/fixtures/inspectorPage.ts';
import { serve } from './serve.ts';

/** tsx names the functions it compiles (`__name`); a page given one of them needs the helper. */
const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((f) => f);';

/**
 * The built app served and opened in a page of its own at 1280×720, as the app benches use it;
 * `close` ends the page's context and the server.
 */
export async function openApp(
  browser: Browser,
  appDir: string,
): Promise<{ page: Page; app: InspectorPage; close: () => Promise<void> }> {
  const server = await serve(appDir);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const close = async () => {
    await context.close();
    await server.close();
  };
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(10 * 60_000);
    await page.addInitScript({ content: NAME_SHIM });
    const app = new InspectorPage(page);
    await app.goto(server.url);
    return { page, app, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Notes the page's long tasks from now (PerformanceObserver `longtask`, over 50 ms); `read`
 * gives the longest and how many, once those still being reported have come in.
 */
export async function watchLongTasks(
  page: Page,
): Promise<{ read: () => Promise<{ longestTaskMs: number; longTasks: number }> }> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  return {
    read: async () => {
      // Long tasks are reported after they end: give the observer a moment.
      await page.waitForTimeout(200);
      const tasks = await page.evaluate(
        () => (window as unknown as { __longTasks: number[] }).__longTasks,
      );
      return { longestTaskMs: tasks.length > 0 ? Math.max(...tasks) : 0, longTasks: tasks.length };
    },
  };
}
