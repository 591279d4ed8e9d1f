import { expect, test, type Page } from '@playwright/test';
import { InspectorPage, parseInstant } from './fixtures/inspectorPage.ts';
import { PROCESS_STATUSES, type ProcessStatus } from '../runtime/supervisor/records.ts';

// Issue 26, point 8: the process table keeps the process in hand in view, says each status in
// one word, the same in the header, the table and the filter, sorts by any column, searches,
// and fits its panel at any width.

test.use({ viewport: { width: 1280, height: 720 } });

test('rule: each new process is scrolled into view in the table, and a stepped one is "stopped" in the header, its row and the filter', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  // More processes than the table shows at once: each new one is brought into view.
  for (let n = 1; n <= 8; n++) {
    await app.startButton.click();
    await expect(app.rows).toHaveCount(n);
    await expect(app.rows.last()).toBeInViewport();
  }
  const id = await app.start('Fan-out with a join', { value: { amount: 700 } }, { paused: true });
  await app.inspect(id);
  await expect(app.row(id)).toBeInViewport();
  await expect(app.status).toHaveText('stopped');
  await expect(app.rowStatus(id)).toHaveText('stopped');
  await expect(
    page.getByRole('combobox').filter({ has: page.getByRole('option', { name: 'stopped (1)' }) }),
  ).toHaveCount(1);
  await expect(page.getByText('paused', { exact: true })).toHaveCount(0);
});

/**
 * Processes seeded through a second runtime on the same database, as another tab would start
 * them, in this order of creation: each id says its place (`n1-…`), so that ties can be checked.
 */
const SEEDS: { id: string; flow: string; paused?: boolean }[] = [
  { id: 'n1-nightly', flow: 'nightly-refresh' },
  { id: 'n2-approval', flow: 'order-approval' },
  { id: 'n3-fanout', flow: 'fanout-join' },
  { id: 'n4-nightly-paused', flow: 'nightly-refresh', paused: true },
  { id: 'n5-payment', flow: 'order-with-payment' },
  { id: 'n6-approval', flow: 'order-approval' },
  { id: 'n7-nightly-paused', flow: 'nightly-refresh', paused: true },
  {
    id: 'n8-a-process-id-far-too-long-for-its-column-to-show-it-whole-0123456789',
    flow: 'nightly-refresh',
  },
];
const SEEDED_AT = Date.parse('2026-01-01T00:00:00Z');
const placeOf = (id: string) => Number(/^n(\d+)-/.exec(id)![1]);

async function seeded(page: Page): Promise<InspectorPage> {
  // Every seed starts at the same fixed instant, so their due times are what their flows say,
  // whatever the machine's speed: equal ones are ties, in order of creation.
  await page.clock.setFixedTime(SEEDED_AT);
  const app = new InspectorPage(page);
  await app.goto();
  await page.evaluate(async (seeds) => {
    const module = '/web/runtime/createRuntime.ts';
    const { createRuntime } = (await import(
      /* @vite-ignore */ module
    )) as typeof import('../web/runtime/createRuntime.ts');
    const other = await createRuntime({ dbName: 'wakeflow-workspace', seed: [] });
    try {
      for (const { id, flow, paused } of seeds)
        await other.processes.start(flow, { id, paused: paused ?? false });
    } finally {
      other.close();
    }
  }, SEEDS);
  await expect(app.rows).toHaveCount(SEEDS.length);
  return app;
}

/** The rows as the table shows them, top to bottom. */
async function shown(app: InspectorPage) {
  return app.rows.evaluateAll((rows) =>
    rows.map((row) => {
      const cells = row.querySelectorAll('td');
      return {
        id: row.querySelector('th')!.textContent!,
        status: cells[1]!.textContent!,
        // The due cell's title is the instant; none without a due time.
        due: cells[2]!.getAttribute('title'),
      };
    }),
  );
}

const header = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Processes' }).getByRole('columnheader', { name });

test('rule: a column header sorts the table by it, ascending then descending, ties in order of creation; by keyboard too', async ({
  page,
}) => {
  const app = await seeded(page);
  const rank = (s: string) => PROCESS_STATUSES.indexOf(s as ProcessStatus);
  const status = header(page, 'Status');
  await expect(status).toHaveAttribute('aria-sort', 'none');
  await status.getByRole('button').click();
  await expect(status).toHaveAttribute('aria-sort', 'ascending');
  type Row = Awaited<ReturnType<typeof shown>>[number];
  /** Whether the rows are in the order `compare` says, ties in order of creation. */
  const inOrder = (rows: Row[], compare: (a: Row, b: Row) => number) =>
    rows.every((a, i) => {
      const b = rows[i + 1];
      if (!b) return true;
      const c = compare(a, b);
      return c < 0 || (c === 0 && placeOf(a.id) < placeOf(b.id));
    });
  const expectOrder = async (compare: (a: Row, b: Row) => number) =>
    expect.poll(async () => inOrder(await shown(app), compare)).toBe(true);
  const byStatus = await shown(app);
  // More than one status, and a tie, or the order would prove nothing.
  expect(new Set(byStatus.map((r) => r.status)).size).toBeGreaterThan(2);
  await expectOrder((a, b) => rank(a.status) - rank(b.status));
  await status.getByRole('button').click();
  await expect(status).toHaveAttribute('aria-sort', 'descending');
  await expectOrder((a, b) => rank(b.status) - rank(a.status));

  // By due time, from the keyboard: those without one last, both ways.
  const due = header(page, 'Due');
  await due.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(due).toHaveAttribute('aria-sort', 'ascending');
  await expect(status).toHaveAttribute('aria-sort', 'none');
  const instant = (r: { due: string | null }) => (r.due === null ? Infinity : parseInstant(r.due));
  const rows = await shown(app);
  expect(rows.filter((r) => r.due !== null).length).toBeGreaterThan(1);
  expect(rows.some((r) => r.due === null)).toBe(true);
  const byDue = (desc: boolean) => (a: Row, b: Row) => {
    const [x, y] = [instant(a), instant(b)];
    if (x === Infinity || y === Infinity) return x === y ? 0 : x === Infinity ? 1 : -1;
    return desc ? y - x : x - y;
  };
  await expectOrder(byDue(false));
  await page.keyboard.press('Space');
  await expect(due).toHaveAttribute('aria-sort', 'descending');
  await expectOrder(byDue(true));
  // A third press goes back to the order of creation.
  await page.keyboard.press('Enter');
  await expect(due).toHaveAttribute('aria-sort', 'none');
  await expectOrder(() => 0);
  await expect(due.getByRole('button')).toBeFocused();
});

test('rule: the search box finds processes by id, flow name or status, the counts follow it, and Escape clears it', async ({
  page,
}) => {
  const app = await seeded(page);
  const search = page.getByRole('textbox', { name: 'Search processes by id, flow or status' });
  const found = page.getByRole('status').filter({ hasText: / of \d+ process/ });
  const ids = async () => (await shown(app)).map((r) => r.id);
  const filter = page.getByRole('combobox', { name: 'Show' });

  await search.fill('APPROVAL');
  await expect.poll(ids).toEqual(['n2-approval', 'n6-approval']);
  await expect(found).toHaveText(`2 of ${SEEDS.length} processes`);
  await expect(filter.getByRole('option', { name: 'all processes (2)' })).toBeAttached();

  // By the flow's name, which its id does not hold: "Order with a card payment".
  await search.fill('card');
  await expect.poll(ids).toEqual(['n5-payment']);
  await expect(found).toHaveText(`1 of ${SEEDS.length} processes`);

  // By status.
  await search.fill('stopped');
  await expect.poll(ids).toEqual(['n4-nightly-paused', 'n7-nightly-paused']);
  await expect(filter.getByRole('option', { name: 'stopped (2)' })).toBeAttached();

  await search.fill('no such thing');
  await expect(page.getByText('No process matches “no such thing”.')).toBeVisible();
  await expect(app.table).toHaveCount(0);

  await search.press('Escape');
  await expect(search).toHaveValue('');
  await expect(app.rows).toHaveCount(SEEDS.length);
  await expect(found).toHaveCount(0);

  await search.fill('n3');
  await expect.poll(ids).toEqual(['n3-fanout']);
  await page.getByRole('button', { name: 'Clear the search' }).click();
  await expect(search).toHaveValue('');
  await expect(search).toBeFocused();
  await expect(app.rows).toHaveCount(SEEDS.length);
});

test("rule: at the process list's smallest width nothing in it overflows sideways; a long id is cut and told whole in its title", async ({
  page,
}) => {
  await seeded(page);
  const list = page.locator('.process-table');
  const fits = () =>
    list.evaluate((el) => {
      const table = el.querySelector('table')!;
      const head = el.querySelector('.process-table__head')!;
      return (
        el.scrollWidth <= el.clientWidth &&
        table.scrollWidth <= table.clientWidth &&
        head.scrollWidth <= head.clientWidth
      );
    });
  expect(await fits()).toBe(true);
  const separator = page.getByRole('separator', { name: 'Resize the process list' });
  await separator.focus();
  const before = (await list.boundingBox())!.width;
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => (await list.boundingBox())!.width).toBeLessThan(before);
  // The panel's minimum (240 px, InspectorPanel.tsx).
  await expect.poll(async () => Math.round((await list.boundingBox())!.width)).toBeLessThan(250);
  expect(await fits()).toBe(true);
  const long = SEEDS.at(-1)!.id;
  const button = page.getByRole('button', { name: `Inspect process ${long}` });
  await expect(button).toHaveAttribute('title', long);
  expect(await button.evaluate((b) => b.scrollWidth > b.clientWidth)).toBe(true);
  expect(await button.evaluate((b) => getComputedStyle(b).textOverflow)).toBe('ellipsis');
});
