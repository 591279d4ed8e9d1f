// The workbench attached to a server, at the size of the issue: 10,000 processes asleep on one
// local server, read through the remote runtime and the built app's `/ingress` proxy as the page
// reads them. Figures: the table's first window with its counts (goal: under 1 s), a window
// anywhere in the list as a scroll asks for it, selecting a process, which reads what draws its
// position (goal: under 300 ms), and the table in Chromium scrolled by wheel (goal: 60 fps, only
// the rows in view asked for). Part of `npm run bench:restate`; BENCH_PROCESSES sets the size.
import { performance } from 'node:perf_hooks';
import { serveBuiltApp } from '../../e2e/fixtures/previewServer.ts';
import { sleeperFlow } from '../../runtime/restate/fixtures/sleeperFlow.ts';
import { registerEndpoint, serveEndpoint } from '../../runtime/restate/endpoint.ts';
import { IngressClient } from '../../runtime/restate/ingressClient.ts';
import { launchChromium } from '../browser/chromium.ts';
import { removeDataDir, startRestateNode } from '../../scripts/restateServer.ts';
import { memoryStorage } from '../../web/runtime/memoryStorage.ts';
import { createRemoteRuntime } from '../../web/runtime/remoteRuntime.ts';

export interface WorkbenchFigures {
  processes: number;
  startsPerSecond: number;
  /** From the last start until the index held every process. */
  indexedAfterSeconds: number;
  openMs: { median: number; max: number };
  windowMs: { median: number; p95: number };
  selectMs: { median: number; p95: number };
  scroll: TableScroll;
}

/** The process table of the built app in Chromium, connected to the server, scrolled by wheel. */
export interface TableScroll {
  /** Frame intervals while scrolling, ms (60 Hz gives 16.7). */
  frameMs: { median: number; p95: number; longest: number };
  /** Windows the page asked the index for while scrolling, and the largest of them (rows). */
  windowsAsked: number;
  largestWindow: number;
  /** Rows the table had drawn at the end (only those in view, and a margin). */
  rowsDrawn: number;
}

const WHEELS = 150;

async function scrollTable(appOrigin: string, ingress: string): Promise<TableScroll> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const windows: number[] = [];
    page.on('request', (r) => {
      if (!r.url().endsWith('/processIndex/all/page')) return;
      windows.push((JSON.parse(r.postData() ?? '{}') as { limit?: number }).limit ?? 0);
    });
    await page.goto(`${appOrigin}/`);
    await page.getByRole('button', { name: 'Connect to a server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect to a server' });
    await dialog.getByRole('textbox', { name: 'Ingress URL' }).fill(ingress);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    const table = page.getByRole('table', { name: 'Processes' });
    await table.getByRole('row').nth(10).waitFor({ timeout: 60_000 });
    const box = (await table.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
    // As text: tsx names the functions it compiles with a helper the page does not have.
    await page.evaluate(`{
      window.frames_ = [];
      window.stop_ = false;
      let last = performance.now();
      requestAnimationFrame(function loop(t) {
        window.frames_.push(t - last);
        last = t;
        if (!window.stop_) requestAnimationFrame(loop);
      });
    }`);
    const before = windows.length;
    for (let i = 0; i < WHEELS; i++) await page.mouse.wheel(0, 600);
    const frames = (await page.evaluate(
      'window.stop_ = true, window.frames_.slice(1)',
    )) as number[];
    const asked = windows.slice(before);
    return {
      frameMs: {
        median: quantile(frames, 0.5),
        p95: quantile(frames, 0.95),
        longest: quantile(frames, 1),
      },
      windowsAsked: asked.length,
      largestWindow: Math.max(0, ...asked),
      rowsDrawn: await table.getByRole('row').count(),
    };
  } finally {
    await browser.close();
  }
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
};

export async function workbenchAtScale(processes: number): Promise<WorkbenchFigures> {
  const node = await startRestateNode();
  const endpoint = await serveEndpoint(0);
  // The built app as a host serves it, with the `/ingress` proxy to this machine's servers.
  const app = await serveBuiltApp();
  try {
    await registerEndpoint(node.adminUrl, endpoint.url);
    const api = new IngressClient(node.ingressUrl);
    const deployed = await api.deploy(JSON.stringify(sleeperFlow('sleeper')));
    if (!deployed.ok) throw new Error(deployed.error);

    // Started 32 at a time, as many clients would.
    const ids = Array.from({ length: processes }, (_, i) => `p-${i}`);
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < ids.length) {
          const id = ids[next++]!;
          const started = await api.start(id, { flow: 'sleeper' });
          if (!started.ok) throw new Error(`${id}: ${started.error}`);
        }
      }),
    );
    const startSeconds = (performance.now() - t0) / 1000;

    const runtime = createRemoteRuntime(
      { url: node.ingressUrl },
      { origin: app.origin, storage: memoryStorage(), readTimeoutMs: 60_000 },
    );
    const t1 = performance.now();
    for (;;) {
      const counts = await runtime.processCounts();
      if (counts.total >= processes) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const indexedAfterSeconds = (performance.now() - t1) / 1000;

    const open: number[] = [];
    for (let i = 0; i < 5; i++)
      open.push(await timed(() => runtime.processList({ offset: 0, limit: 60 })));
    const windows: number[] = [];
    for (let i = 0; i < 20; i++) {
      const offset = Math.floor(((i * 7919) % processes) / 60) * 60;
      windows.push(await timed(() => runtime.processList({ offset, limit: 60 })));
    }
    const select: number[] = [];
    for (let i = 0; i < 20; i++) {
      const id = ids[(i * 4999) % processes]!;
      select.push(await timed(() => runtime.reading(id)));
    }
    runtime.close();
    const scroll = await scrollTable(app.origin, node.ingressUrl);
    return {
      processes,
      startsPerSecond: Math.round(processes / startSeconds),
      indexedAfterSeconds: Math.round(indexedAfterSeconds * 10) / 10,
      openMs: { median: quantile(open, 0.5), max: quantile(open, 1) },
      windowMs: { median: quantile(windows, 0.5), p95: quantile(windows, 0.95) },
      selectMs: { median: quantile(select, 0.5), p95: quantile(select, 0.95) },
      scroll,
    };
  } finally {
    app.close();
    await endpoint.close();
    await node.stop();
    removeDataDir(node.baseDir);
  }
}
