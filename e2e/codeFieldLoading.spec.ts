import { expect, test } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

test('rule: a JSON field is as tall while its editor loads as once loaded, so nothing below it moves (the start dialog\'s "Start paused")', async ({
  page,
}) => {
  // The editor's code is held back until the field's placeholder has been measured.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/JsonEditor.tsx*', async (route) => {
    await held;
    await route.continue();
  });
  const app = new InspectorPage(page);
  await app.goto();
  await app.openStartForm();
  const paused = app.startForm.getByLabel('Start paused, to step through it');
  await expect(app.startForm.locator('.wf-code--loading')).toBeVisible();
  const before = (await paused.boundingBox())!;
  release();
  await expect(app.startForm.locator('.cm-editor')).toBeVisible();
  const after = (await paused.boundingBox())!;
  // A border's pixel or two at most: a click aimed at the box while the editor loads lands on it.
  expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(2);
});
