import { expect, test } from '@playwright/test';
import { exampleFlowNames } from './fixtures/exampleFlowNames.ts';
import { ExamplesPage } from './fixtures/examplesPage.ts';

test('the start page lists every example flow by name', async ({ page }) => {
  const names = exampleFlowNames();
  expect(names.length).toBeGreaterThanOrEqual(4);

  const examples = new ExamplesPage(page);
  await examples.goto();

  await expect(page.getByRole('heading', { level: 1, name: 'wakeflow' })).toBeVisible();
  await expect(examples.list).toBeVisible();
  for (const name of names) {
    await expect(examples.flowHeading(name)).toBeVisible();
  }
  await expect(examples.flowHeadings).toHaveCount(names.length);
});
