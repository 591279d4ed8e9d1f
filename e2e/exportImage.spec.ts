import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';

test('the canvas exports as a PNG and an SVG picture', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('Flow name')).not.toHaveValue('');
  await expect(page.getByRole('group', { name: /start node/i }).first()).toBeVisible();

  const png = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Export PNG' }).click();
  const pngFile = await (await png).path();
  const pngBytes = await readFile(pngFile);
  // The PNG signature: \x89 P N G.
  expect([...pngBytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  expect(pngBytes.length).toBeGreaterThan(2000);

  const svg = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Export SVG' }).click();
  const download = await svg;
  expect(download.suggestedFilename()).toMatch(/\.svg$/);
  // The browser saves the data URL's content: the SVG document itself.
  const svgText = await readFile(await download.path(), 'utf8');
  expect(svgText).toContain('<svg');
  expect(svgText).toContain('start');
});
