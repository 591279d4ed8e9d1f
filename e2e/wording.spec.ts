import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';
import { WorkbenchPage } from './fixtures/workbenchPage.ts';

// Issue 26, point 9: what the workbench says reads as a designer would write it.

test.use({ viewport: { width: 1280, height: 720 } });

test('rule: the problems heading counts warnings too; an import’s banner is sentences, and goes when another flow is opened', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  await expect(d.problems.getByRole('heading')).toHaveText('Problems 0');
  await d.addNode('work');
  // A node nothing leads to is a warning: the heading says so, not "Problems 0" alone.
  await expect(d.problems.getByRole('heading')).toHaveText('Problems 0 · Warnings 1');

  // The same flow again (its id taken) with an edge to a node that is not there: renamed, and
  // it cannot run; each note is a sentence of its own.
  const { flow } = await d.exportFlow();
  const file = { ...flow, edges: [...flow.edges, { id: 'lost', from: 'work1', to: 'ghost' }] };
  await d.importFile('again.flow.json', JSON.stringify(file));
  const banner = page.getByRole('status').filter({ hasText: /^Imported / });
  await expect(banner).toContainText(
    `"${flow.id}" came in as "${flow.id}-2" (that id was taken). "New flow" cannot run until its problem is fixed; Problems lists it.`,
  );
  // The banner was about the flows imported: opening another one takes it away.
  await d.flowLink('Nightly refresh').click();
  await expect(d.flowName).toHaveValue('Nightly refresh');
  await expect(banner).toHaveCount(0);
});

test('rule: the journal’s “Passes kept in full” field shows its whole number', async ({ page }) => {
  const app = new WorkbenchPage(page);
  await app.goto();
  await app.start.click();
  const field = app.process.getByRole('spinbutton', { name: 'Passes kept in full' });
  await expect(field).toBeVisible();
  await field.fill('1000');
  // The text fits inside the box, its padding and the spin buttons left out.
  const room = await field.evaluate((el) => {
    const input = el as HTMLInputElement;
    const style = getComputedStyle(input);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = style.font;
    const inside =
      input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
    return inside - ctx.measureText(input.value).width;
  });
  expect(room).toBeGreaterThanOrEqual(0);
});
