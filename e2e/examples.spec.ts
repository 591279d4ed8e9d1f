import { expect, test } from '@playwright/test';
import { exampleFlowNames } from './fixtures/exampleFlowNames.ts';
import { ExamplesPage } from './fixtures/examplesPage.ts';

test('on first run the workspace opens on the example flows, one of them on the canvas', async ({
  page,
}) => {
  const names = exampleFlowNames();
  expect(names.length).toBeGreaterThanOrEqual(4);

  const examples = new ExamplesPage(page);
  await examples.goto();

  await expect(page.getByRole('heading', { level: 1, name: 'wakeflow' })).toBeVisible();
  for (const name of names) await expect(examples.flow(name)).toBeVisible();
  await expect(examples.flowButtons).toHaveCount(names.length);
  await expect(page.getByLabel('Flow name')).not.toHaveValue('');
  await expect(
    page
      .getByRole('button', { name: /node start/ })
      .or(page.getByRole('group', { name: /start node/i })),
  ).toBeVisible();
});
