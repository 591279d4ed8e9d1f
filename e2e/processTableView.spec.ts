import { expect, test } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// Issue 26, point 8: the process table keeps the process in hand in view, and says each status
// in one word, the same in the header, the table and the filter.

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
