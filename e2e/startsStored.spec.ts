import { expect, test, type Page } from '@playwright/test';

/** Starts in all, split between the two tabs, and how many each tab has in flight at once. */
const STARTS = 10_000;
const AT_ONCE = 8;
/** A workspace of this test's own, so the app's own tab and other tests are not in it. */
const DB = 'starts-two-tabs';

/** A flow that sleeps as soon as it starts: a start is all the work there is. */
const SLEEPER = {
  format: 'flow/1',
  id: 'sleeper',
  name: 'Sleeper',
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'nap', kind: 'continue-after', on: [{ id: 'day', timer: 'P1D' }] },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'nap' },
    { id: 'e2', from: 'nap', to: 'end', trigger: 'day' },
  ],
};

/** In a tab: a runtime (its own worker) on the test's workspace, as a second tab has. */
async function startIn(page: Page, first: number, count: number): Promise<string[]> {
  return page.evaluate(
    async ({ db, flow, first, count, atOnce }) => {
      // The dev server's module, by its address (not bundled into the test).
      const module = '/web/runtime/createRuntime.ts';
      const { createRuntime } = (await import(
        /* @vite-ignore */ module
      )) as typeof import('../web/runtime/createRuntime.ts');
      const runtime = await createRuntime({ dbName: db, seed: [flow as never] });
      const ids: string[] = [];
      try {
        let next = first;
        const lane = async () => {
          while (next < first + count) {
            const n = next++;
            const record = await runtime.processes.start('sleeper', { context: { n } });
            ids[n - first] = record.id;
          }
        };
        await Promise.all(Array.from({ length: atOnce }, lane));
      } finally {
        runtime.close();
      }
      return ids;
    },
    { db: DB, flow: SLEEPER, first, count, atOnce: AT_ONCE },
  );
}

test('rule: every start that returns is stored: 10,000 starts from two tabs at once, each id stored once with its own context', async ({
  browser,
}) => {
  // A guard against a hang only: the starts take as long as the machine needs.
  test.setTimeout(900_000);
  const context = await browser.newContext();
  // The sleepers' timers are a day away: none comes due while the test runs, on any machine.
  const tabs = [await context.newPage(), await context.newPage()];
  // Any page of the app's origin will do; the test's workspace is its own database.
  for (const tab of tabs) await tab.goto('/');
  const half = STARTS / 2;
  const [a, b] = await Promise.all([startIn(tabs[0]!, 0, half), startIn(tabs[1]!, half, half)]);
  const returned = [...a, ...b];
  expect(returned).toHaveLength(STARTS);
  expect(new Set(returned).size).toBe(STARTS);

  // Read back from a fresh runtime: each returned id once, with the context it was started on.
  const found = await tabs[0]!.evaluate(
    async ({ db, ids }) => {
      const module = '/web/runtime/createRuntime.ts';
      const { createRuntime } = (await import(
        /* @vite-ignore */ module
      )) as typeof import('../web/runtime/createRuntime.ts');
      const runtime = await createRuntime({ dbName: db, seed: [] });
      try {
        const names = await runtime.processNames();
        const stored = names.map((p) => p.id);
        const wrong: string[] = [];
        for (let i = 0; i < ids.length; i += 50) {
          const batch = ids.slice(i, i + 50);
          const readings = await Promise.all(batch.map((id) => runtime.reading(id, 0)));
          readings.forEach((r, j) => {
            const n = (r?.context.value as { n?: number } | null)?.n;
            if (r === undefined || n !== i + j) wrong.push(`${batch[j]}: context ${String(n)}`);
          });
        }
        return { stored, wrong };
      } finally {
        runtime.close();
      }
    },
    { db: DB, ids: returned },
  );
  expect(found.stored).toHaveLength(STARTS);
  expect(new Set(found.stored)).toEqual(new Set(returned));
  expect(found.wrong).toEqual([]);
  await context.close();
});
