import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ProcessesPage } from './fixtures/processesPage.ts';

/** The serious and critical violations axe finds on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('the designer has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('Flow name')).not.toHaveValue('');
  await page
    .getByRole('list', { name: 'Flows', exact: true })
    .getByRole('button', { name: 'Nightly refresh', exact: true })
    .click();
  await page.getByRole('group', { name: /work node read/i }).click();
  await expect(page.getByRole('region', { name: 'Properties', exact: true })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the inspector has no serious or critical accessibility violation', async ({ page }) => {
  const app = new ProcessesPage(page);
  await app.goto();
  await app.start('Order with approval and a timeout', {
    order: { lines: [{ price: 2, qty: 3 }] },
  });
  await app.inspect(app.first);
  await expect(page.getByRole('button', { name: 'Send decide' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
