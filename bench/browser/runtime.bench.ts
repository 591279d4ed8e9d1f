import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { stats, type Stats } from '../harness.ts';
import type { AdvanceBenchResult, FanOutBenchResult, WakeBenchResult } from './main.ts';
import { buildPage, serve, tempDir } from './serve.ts';

/**
 * 4. The runtime in Chromium on real IndexedDB: processes asleep at a timer that has fallen due
 * are all woken and each run to its next stop, through the app's own wake path
 * (bench/browser/main.ts), and the cost of one step's transaction.
 *
 * The page first wakes 100 processes (its own database) for three rounds after a warm-up round:
 * that warms the page up and shows how the wake rate depends on how many are due. Then 1,000
 * processes, three timed rounds; a round of 1,000 takes long enough (see docs/performance.md) that it
 * gets no warm-up round of its own: the page is already warm.
 */

export interface WakeFigures {
  processes: number;
  rounds: number;
  /** Processes woken and run to their next stop per second, per timed round. */
  wakesPerSec: Stats;
  /** Milliseconds to wake all of them, per timed round. */
  roundMs: Stats;
  /** One step's transaction (`commitStep`) in the timed rounds, ms. */
  commitMs: Stats;
  stepsPerWake: number;
  /** Writing the sleeping processes before the rounds (not part of any figure). */
  setupMs: number;
}

export interface BrowserRuntimeResult {
  small: WakeFigures;
  full: WakeFigures;
  /** Seven days of a one-minute loop, advanced in one go (issue 17's long history). */
  advance?: AdvanceBenchResult;
  /** A fan-out of 10,000 into one join, run to its end (issue 29.5). */
  fanOut?: FanOutBenchResult;
}

const ROOT = fileURLToPath(new URL('.', import.meta.url));

async function wake(page: Page, processes: number, rounds: number, warmup: boolean) {
  const r: WakeBenchResult = await page.evaluate(
    ([n, k, w]) => window.wakeflowBench.wakeBench(n, k, w),
    [processes, rounds, warmup] as const,
  );
  return {
    processes,
    rounds,
    wakesPerSec: stats(r.rounds.map((x) => (x.woken * 1000) / x.ms)),
    roundMs: stats(r.rounds.map((x) => x.ms)),
    commitMs: stats(r.commitMs),
    stepsPerWake: r.stepsPerWake,
    setupMs: r.setupMs,
  };
}

export async function browserRuntimeBench(
  browser: Browser,
  log: (line: string) => void,
  processes = 1000,
): Promise<BrowserRuntimeResult> {
  const out = tempDir('runtime');
  try {
    log('chromium: building the runtime page …');
    await buildPage({ root: ROOT, outDir: out.dir, configFile: false });
    const server = await serve(out.dir);
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      // A wake round of 1,000 processes takes minutes while their wake path is as it is now.
      page.setDefaultTimeout(15 * 60_000);
      await page.goto(server.url);
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
      log('chromium: waking 100 processes (warm-up, then 3 rounds) …');
      const small = await wake(page, 100, 3, true);
      log(`chromium: waking ${processes} processes, 3 rounds …`);
      const full = await wake(page, processes, 3, false);
      log('chromium: advancing a one-minute loop by seven days …');
      const advance = await page.evaluate(() => window.wakeflowBench.advanceBench(7));
      log('chromium: a fan-out of 10,000 branches into one join …');
      const fanOut = await page.evaluate(() => window.wakeflowBench.fanOutBench(10_000));
      await context.close();
      return { small, full, advance, fanOut };
    } finally {
      await server.close();
    }
  } finally {
    out.cleanup();
  }
}
