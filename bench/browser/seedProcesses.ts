import type { BrowserContext } from '@playwright/test';
import { InspectorPage } from '../../e2e/fixtures/inspectorPage.ts';
import type { Flow } from '../../shared/schema.ts';
import { MemoryStore } from '../../runtime/store/memoryStore.ts';
import { CONTEXT, FLOW, PROCESS, stamp } from '../../runtime/store/restore.ts';
import { VirtualClock } from '../../runtime/supervisor/clock.ts';
import { Supervisor } from '../../runtime/supervisor/supervisor.ts';

/**
 * `processes` copies of one process of `flow` started at `startedAt` and asleep at its first
 * wait, as the app's database keeps them (each with a context of its own): what a bench writes
 * straight into the workspace before it opens the app, since starting 10,000 through the page
 * would measure the starts instead.
 */
export async function sleepingRecords(flow: Flow, processes: number, startedAt: number) {
  const store = new MemoryStore();
  await store.putFlow(flow);
  const supervisor = new Supervisor(store, new VirtualClock(startedAt));
  const like = await supervisor.start(flow.id, { id: 'like', context: {} });
  return {
    flow: stamp(FLOW, flow),
    contexts: Array.from({ length: processes }, (_, i) =>
      stamp(CONTEXT, { id: `bench-c${i}`, version: 0, value: {} }),
    ),
    processes: Array.from({ length: processes }, (_, i) =>
      stamp(PROCESS, {
        ...like,
        id: `bench-p${i}`,
        contextId: `bench-c${i}`,
        created: 1_000_000 + i,
        waitsFor: [],
      }),
    ),
  };
}

/** The app's workspace database, as the app names it. */
export const WORKSPACE_DB = 'wakeflow-workspace';

/**
 * Writes what `sleepingRecords` made into the workspace of the context's origin (its `baseURL`):
 * the app is opened once first, so that it creates its database, and closed again.
 */
export async function seedWorkspace(
  context: BrowserContext,
  data: Awaited<ReturnType<typeof sleepingRecords>>,
): Promise<void> {
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  await new InspectorPage(page).goto();
  await page.evaluate(
    async ({ db: name, data: d }) => {
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const tx = database.transaction(['flows', 'contexts', 'processes'], 'readwrite');
      tx.objectStore('flows').put(d.flow);
      for (const c of d.contexts) tx.objectStore('contexts').put(c);
      for (const p of d.processes) tx.objectStore('processes').put(p);
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      database.close();
    },
    { db: WORKSPACE_DB, data },
  );
  await page.close();
}
