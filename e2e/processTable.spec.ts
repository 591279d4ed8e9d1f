import { expect, test } from '@playwright/test';
import { ProcessesPage } from './fixtures/processesPage.ts';

/** Processes seeded: many more than the table's view can show. */
const MANY = 300;
const idOf = (i: number) => `seeded-${String(i).padStart(5, '0')}`;

test('rule: a workspace of many processes lists them all, while the DOM holds only the rows in view and the page only the window the worker sent', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const app = new ProcessesPage(page);
  await app.goto();
  // Seeded through the runtime, as another tab of the workspace would start them: a second
  // runtime (its own worker) on the same database; this tab hears of each and lists them.
  await page.evaluate(async (count) => {
    // The dev server's module, by its address (not bundled into the test).
    const module = '/web/runtime/createRuntime.ts';
    const { createRuntime } = (await import(
      /* @vite-ignore */ module
    )) as typeof import('../web/runtime/createRuntime.ts');
    const other = await createRuntime({ dbName: 'wakeflow-workspace', seed: [] });
    try {
      for (let i = 0; i < count; i++)
        await other.processes.start('nightly-refresh', {
          id: `seeded-${String(i).padStart(5, '0')}`, // idOf, inside the page
          paused: true,
        });
    } finally {
      other.close();
    }
  }, MANY);

  const filter = page.getByRole('combobox', { name: 'Show' });
  await expect(filter.getByRole('option', { name: `all processes (${MANY})` })).toBeAttached();
  // The table says how many rows it has, though it draws few of them.
  await expect(app.table).toHaveAttribute('aria-rowcount', String(MANY + 1));
  const drawn = await app.items.count();
  expect(drawn).toBeGreaterThan(0);
  expect(drawn).toBeLessThan(60);
  await expect(app.items.first()).toContainText(idOf(0));
  // The page holds only the window it shows, as the worker sent it: not every process.
  const held = () =>
    page.evaluate(() => {
      // The dev server's app hands its stores to a test (web/main.tsx).
      const { wakeflowWorkbench } = window as unknown as {
        wakeflowWorkbench: import('../web/shell/WorkbenchProvider.tsx').WorkbenchParts;
      };
      const { list } = wakeflowWorkbench.runtimeState.getState();
      return { rows: list.rows.length, offset: list.query.offset, total: list.total };
    });
  const first = await held();
  expect(first.total).toBe(MANY);
  expect(first.rows).toBeGreaterThanOrEqual(drawn);
  expect(first.rows).toBeLessThan(MANY / 2);

  // Filtered by the status they have, the table holds them all; by another, none.
  const status = (await app.items.first().getByRole('cell').nth(1).innerText()).trim();
  await filter.selectOption({ label: `${status} (${MANY})` });
  await expect(app.table).toHaveAttribute('aria-rowcount', String(MANY + 1));
  await filter.selectOption({ label: 'done (0)' });
  await expect(page.getByText('No process is done.')).toBeVisible();
  await filter.selectOption({ label: `all processes (${MANY})` });
  await expect(app.items.first()).toContainText(idOf(0));

  // Scrolled to the end, the last process is drawn, and still only a view's worth of rows.
  await app.table.evaluate((table) => {
    const scroller = table.closest('.process-table')!;
    scroller.scrollTop = scroller.scrollHeight;
  });
  const last = page.getByRole('button', { name: `Inspect process ${idOf(MANY - 1)}` });
  await expect(last).toBeVisible();
  expect(await app.items.count()).toBeLessThan(60);
  await expect(page.getByRole('button', { name: `Inspect process ${idOf(0)}` })).toHaveCount(0);
  // The window read moved with the view: the rows at the end, not those of the start.
  const end = await held();
  expect(end.offset).toBeGreaterThan(MANY / 2);
  expect(end.rows).toBeLessThan(MANY / 2);

  // A row drawn after scrolling opens its process like any other.
  await last.click();
  await expect(page.getByRole('region', { name: `Process ${idOf(MANY - 1)}` })).toBeVisible();
});
