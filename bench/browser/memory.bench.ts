import type { Browser, CDPSession, Page } from '@playwright/test';
import { chain, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { MemoryStore } from '../../runtime/store/memoryStore.ts';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';
import { seedWorkspace, sleepingRecords } from './seedProcesses.ts';
import { serve } from './serve.ts';

/**
 * Issue 29.4: memory stays flat while processes sleep. The built app is opened on a workspace
 * of 10 processes asleep on a week's timer, then on one of 10,000 (each written straight into
 * its database, then the app opened again and left to settle); each time, after a collection,
 * the JS heap of the page and of the runtime's workers (DevTools protocol, on their targets),
 * and what the origin stores (`navigator.storage.estimate`). Beside them, what one sleeping
 * process's records hold, counted in Node: the bytes of its process record, context, journal
 * and context changes as JSON, and of its index keys.
 */

export interface MemoryPoint {
  processes: number;
  /** The page's JS heap in use after a collection, bytes. */
  pageHeap: number;
  /** The runtime workers' JS heap in use after a collection, bytes (summed). */
  workerHeap: number;
  /** What the origin stores, as the browser counts it, bytes. */
  usage: number;
}

export interface MemoryResult {
  few: MemoryPoint;
  many: MemoryPoint;
  /** (many − few) / (their difference in processes): the browser's own count per process. */
  usagePerProcess: number;
  /** One sleeping process's records and index keys, as JSON, bytes. */
  recordBytes: number;
}

const SETTLE_MS = 3000;

const sleeper = flow({
  id: 'bench-week',
  name: 'Bench week',
  nodes: [start(), wait('w', [{ id: 't', timer: 'P7D' }]), work('note', { woke: 'true' }), end()],
  edges: chain('start', 'w', 'note', 'end'),
});

/** Every runtime worker's heap in use after a collection, through the browser's own session. */
async function workerHeaps(browser: Browser): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await session.send('Target.getTargets')) as {
      targetInfos: { targetId: string; type: string; url: string }[];
    };
    let total = 0;
    for (const t of targetInfos.filter((x) => x.type === 'worker' && /runtimeWorker/.test(x.url)))
      total += await heapOfTarget(session, t.targetId);
    return total;
  } finally {
    await session.detach();
  }
}

/**
 * A worker target's heap: Playwright opens sessions on pages and frames only, so the worker is
 * reached through the browser session's messages to a target.
 */
async function heapOfTarget(session: CDPSession, targetId: string): Promise<number> {
  const { sessionId } = (await session.send('Target.attachToTarget', {
    targetId,
    flatten: false,
  })) as { sessionId: string };
  let next = 0;
  const pending = new Map<number, (result: unknown) => void>();
  const onMessage = (e: { sessionId?: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  };
  session.on('Target.receivedMessageFromTarget', onMessage);
  const send = (method: HeapCommand) =>
    new Promise<unknown>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      void session.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method, params: {} }),
      });
    });
  try {
    return await heapAfterCollection(send);
  } finally {
    session.off('Target.receivedMessageFromTarget', onMessage);
    await session.send('Target.detachFromTarget', { sessionId });
  }
}

/** The two commands a heap reading takes. */
type HeapCommand = 'HeapProfiler.collectGarbage' | 'Runtime.getHeapUsage';

/** A target's JS heap in use after two collections, through a way to send it a command. */
async function heapAfterCollection(
  send: (method: HeapCommand) => Promise<unknown>,
): Promise<number> {
  await send('HeapProfiler.collectGarbage');
  await send('HeapProfiler.collectGarbage');
  return ((await send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
}

async function pageHeap(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    return await heapAfterCollection((method) => session.send(method));
  } finally {
    await session.detach();
  }
}

async function measureWith(
  browser: Browser,
  url: string,
  processes: number,
  log: (line: string) => void,
): Promise<MemoryPoint> {
  const context = await browser.newContext({
    baseURL: url,
    viewport: { width: 1400, height: 900 },
  });
  try {
    await seedWorkspace(context, await sleepingRecords(sleeper, processes, Date.now()));
    log(`memory: ${processes.toLocaleString('en')} sleeping processes written; opening the app`);
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.goto('/');
    await page.getByText('bench-p', { exact: false }).first().waitFor();
    // The workers' opening work (the due index, the table's first window) done, whatever it is.
    await page.waitForTimeout(SETTLE_MS);
    const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    return {
      processes,
      pageHeap: await pageHeap(page),
      workerHeap: await workerHeaps(browser),
      usage,
    };
  } finally {
    await context.close();
  }
}

/** One process asleep on the week's timer, started for real: its records and keys as JSON. */
async function recordBytes(): Promise<number> {
  const store = new MemoryStore();
  await store.putFlow(sleeper);
  const supervisor = new Supervisor(store, new VirtualClock(Date.now()));
  const p = await supervisor.start(sleeper.id, { context: { order: 1 } });
  const record = await store.getProcess(p.id);
  const parts: unknown[] = [
    record,
    await store.getContext(p.contextId),
    await store.journal(p.id),
    await store.contextChanges(p.contextId),
    // The processes' index keys (runtime/store/schema.ts) and the journal's, one per entry.
    [record?.status, record?.due, record?.created],
    [record?.flow, record?.status],
    [record?.status, record?.created],
    record?.waitsFor ?? [],
    (await store.journal(p.id)).map(() => p.id),
  ];
  return parts.reduce<number>((n, x) => n + Buffer.byteLength(JSON.stringify(x ?? null)), 0);
}

export async function memoryBench(
  browser: Browser,
  appDir: string,
  log: (line: string) => void,
  few = 10,
  many = 10_000,
): Promise<MemoryResult> {
  const server = await serve(appDir);
  try {
    const a = await measureWith(browser, server.url, few, log);
    const b = await measureWith(browser, server.url, many, log);
    return {
      few: a,
      many: b,
      usagePerProcess: (b.usage - a.usage) / (many - few),
      recordBytes: await recordBytes(),
    };
  } finally {
    await server.close();
  }
}
