import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';
import { setUpCalls } from './fixtures/calls.ts';

// The app's workspace database and the one of its call settings beside it (web/connectRuntime.ts,
// web/calls/callSettingsStore.ts).
const WORKSPACE = 'wakeflow-workspace';
const CALL_SETTINGS = 'wakeflow-workspace-calls';

const databases = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));

/** Opens the confirmation from the workspace's menu, by keyboard alone. */
async function openConfirmation(page: Page) {
  const menuButton = page.getByRole('button', { name: 'Workspace actions' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: 'Delete workspace…' });
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete this workspace?' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('rule: deleting the workspace from its menu, after a confirmation naming what is lost, deletes its database and its secrets; another tab lets go of it', async ({
  page,
  context,
}) => {
  const designer = new DesignerPage(page);
  await designer.goto();
  await setUpCalls(page, 'https://shop.example', { name: 'shop', value: 'e2e-secret-9912' });
  const other = await context.newPage();
  await new DesignerPage(other).goto();
  expect(await databases(page)).toEqual(expect.arrayContaining([WORKSPACE, CALL_SETTINGS]));

  // The safe answer has the focus; Escape keeps everything.
  let dialog = await openConfirmation(page);
  await expect(dialog.getByRole('list', { name: 'What is deleted' })).toContainText(
    /\d+ flows?.*processes?, with their contexts and journals.*secrets/s,
  );
  await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await databases(page)).toEqual(expect.arrayContaining([WORKSPACE, CALL_SETTINGS]));

  dialog = await openConfirmation(page);
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete workspace' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'The workspace was deleted' })).toBeVisible();
  await expect(other.getByRole('heading', { name: 'The workspace was deleted' })).toBeVisible();
  const left = await databases(page);
  expect(left).not.toContain(WORKSPACE);
  expect(left).not.toContain(CALL_SETTINGS);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);

  // A new workspace starts on the button: the examples again, and no secret.
  await page.getByRole('button', { name: 'Start a new workspace' }).click();
  await designer.waitUntilOpen();
  await page.getByRole('button', { name: 'Call settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Call settings' });
  await expect(settings.getByText('shop', { exact: true })).toHaveCount(0);
});
