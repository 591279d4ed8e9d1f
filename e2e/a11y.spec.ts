import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { setCode } from './fixtures/codeField.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';
import { ProcessesPage } from './fixtures/processesPage.ts';
import { WorkbenchPage } from './fixtures/workbenchPage.ts';

/** The serious and critical violations axe finds on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('the designer has no serious or critical accessibility violation', async ({ page }) => {
  test.setTimeout(90_000);
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
  test.setTimeout(90_000);
  const app = new ProcessesPage(page);
  await app.goto();
  await app.start('Order with approval and a timeout', {
    order: { lines: [{ price: 2, qty: 3 }] },
  });
  await app.inspect(app.first);
  await expect(page.getByRole('button', { name: 'Send answer' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the JSON fields (the start dialog’s first context, an event’s payload, the context edited) have no serious or critical violation, their errors shown', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const app = new InspectorPage(page);
  await app.goto();
  await app.openStartForm();
  await setCode(app.startForm.getByRole('textbox', { name: 'Initial context (JSON)' }), '[1,]');
  await app.startForm.getByRole('button', { name: 'Start process' }).click();
  await expect(app.startForm.getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');

  const id = await app.start('Nightly refresh', { value: { prices: { read: 0 } } });
  await app.inspect(id);
  await app.process.getByRole('button', { name: 'Edit context' }).click();
  await setCode(app.process.getByRole('textbox', { name: 'Context (JSON)' }), '{"a": }');
  await app.process.getByRole('button', { name: 'Save context' }).click();
  await expect(app.process.getByRole('alert')).toBeVisible();
  await expect(app.process.getByRole('textbox', { name: 'Payload (JSON)' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the inspector stays accessible with a sub-flow open in place, a past snapshot shown and a changed flow drawn', async ({
  page,
}) => {
  // Three axe passes over a page this full take a while on a busy machine.
  test.setTimeout(180_000);
  const app = new InspectorPage(page);
  await app.goto();
  const onboarding = await app.start('Onboarding with nested sub-flows', { value: {} });
  await app.inspect(onboarding);
  await app.openSubflow('checks', 'checks');
  await expect(app.breadcrumb).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await app.useVirtualTime();
  const nightly = await app.start('Nightly refresh', {
    value: { prices: { read: 0, history: [1, 2] } },
  });
  await app.inspect(nightly);
  await app.chooseEntry('fell asleep at sleep');
  await expect(app.snapshotAsOf).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await app.snapshotPanel.getByRole('button', { name: 'Back to now' }).click();
  await app.deleteNode('sleep');
  await app.advanceBy('P1D');
  await expect(app.status).toHaveText('flow-changed');
  await expect(app.canvasChanges).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the workbench with a process started from the top bar has no serious or critical violation in the ${colorScheme} theme`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({
      colorScheme,
      viewport: { width: 1280, height: 720 },
    });
    const page = await context.newPage();
    const app = new WorkbenchPage(page);
    await app.goto();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
    await app.start.click();
    await expect(app.process.getByLabel('Process status')).toHaveText('waiting');
    await expect(app.gettingStarted).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // A menu and a dialog open, as a designer opens them.
    await page.getByRole('button', { name: 'Actions for Nightly refresh' }).click();
    await expect(page.getByRole('menu', { name: 'Actions for Nightly refresh' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Start with options…' }).click();
    await expect(page.getByRole('dialog', { name: 'Start a process' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
}
