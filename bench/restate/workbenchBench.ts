// The workbench attached to a server, at the size of the issue: 10,000 processes asleep on one
// local server, read through the remote runtime and `flow ui`'s proxy as the page reads them.
// Figures: the table's first window with its counts (goal: under 1 s), a window anywhere in the
// list as a scroll asks for it, and selecting a process, which reads what draws its position
// (goal: under 300 ms). Part of `npm run bench:restate`; BENCH_PROCESSES sets the size.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { sleeperFlow } from '../../runtime/restate/fixtures/sleeperFlow.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { registerEndpoint, serveEndpoint } from '../../runtime/restate/endpoint.ts';
import { IngressClient } from '../../runtime/restate/ingressClient.ts';
import { startUi } from '../../runtime/restate/uiCommand.ts';
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
  const app = mkdtempSync(join(tmpdir(), 'wakeflow-ui-'));
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>bench</title>');
  const ui = await startUi({ port: 0, host: '127.0.0.1', ingress: [node.ingressUrl], app });
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
      { origin: ui.url, storage: memoryStorage(), readTimeoutMs: 60_000 },
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
    return {
      processes,
      startsPerSecond: Math.round(processes / startSeconds),
      indexedAfterSeconds: Math.round(indexedAfterSeconds * 10) / 10,
      openMs: { median: quantile(open, 0.5), max: quantile(open, 1) },
      windowMs: { median: quantile(windows, 0.5), p95: quantile(windows, 0.95) },
      selectMs: { median: quantile(select, 0.5), p95: quantile(select, 0.95) },
    };
  } finally {
    await ui.close();
    rmSync(app, { recursive: true, force: true });
    await endpoint.close();
    await node.stop();
    removeDataDir(node.baseDir);
  }
}
