import { expect, test, type Locator } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';
import { WorkbenchPage } from './fixtures/workbenchPage.ts';

// Issue 26: nothing a reflex can break. A designer's reflexes (Escape, Delete, paste again and
// again) do what they would expect, and never lose work or a process's place.

test.use({ viewport: { width: 1440, height: 900 } });

test.beforeEach(async ({ page }) => {
  await page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
});

/**
 * Whether the keyboard's focus ring is drawn on a node (an outline) or an edge (its line drawn
 * thick in the focus colour): what Delete will take.
 */
const ringed = (el: Locator) =>
  el.evaluate((e) => {
    if (!e.matches(':focus-visible')) return false;
    const path = e.querySelector('.react-flow__edge-path');
    return path
      ? getComputedStyle(path).strokeWidth === '3px'
      : getComputedStyle(e).outlineStyle !== 'none';
  });

test('rule: Escape never stops a process; Stop’s shortcut (Ctrl+.) does, the help lists it, and the canvas and the run view agree at once', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  const d = new DesignerPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start('Nightly refresh', { value: { prices: { read: 0 } } });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  await expect(app.runBadge('sleep')).toHaveAccessibleName(/^Process: waiting/);

  // Escape on the page, on a selected node (it deselects), and closing the help: none stops it.
  await page.keyboard.press('Escape');
  await app.selectNode('read');
  await page.keyboard.press('Escape');
  await expect(app.properties.getByRole('heading', { name: /read/ })).toHaveCount(0);
  await page.keyboard.press('?');
  await expect(d.helpDialog).toBeVisible();
  await expect(
    d.helpDialog.getByRole('row', {
      name: 'Ctrl+. stop the process inspected (as its Stop button does)',
      exact: true,
    }),
  ).toBeVisible();
  await expect(
    d.helpDialog.getByRole('row', { name: /^Escape deselect, close a menu or a dialog/ }),
  ).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(d.helpDialog).toBeHidden();
  await expect(app.status).toHaveText('waiting');
  await expect(app.rowStatus(id)).toHaveText('waiting');
  await expect(app.control('Stop')).toBeEnabled();

  // The deliberate act: Stop's shortcut, which its tooltip and aria-keyshortcuts name.
  await expect(app.control('Stop')).toHaveAttribute('aria-keyshortcuts', 'Control+.');
  await page.keyboard.press('Control+.');
  await expect(app.status).toHaveText('stopped');
  await expect(app.rowStatus(id)).toHaveText('stopped');
  // The canvas says what the run view says: stopped, no countdown to a wake that will not come.
  await expect(app.runBadge('sleep')).toHaveAccessibleName(/^Process: stopped, generation/);

  // Resumed and stopped by its button: the same agreement.
  await app.control('Resume').click();
  await expect(app.runBadge('sleep')).toHaveAccessibleName(/^Process: waiting, due /);
  await app.control('Stop').click();
  await expect(app.status).toHaveText('stopped');
  await expect(app.rowStatus(id)).toHaveText('stopped');
  await expect(app.runBadge('sleep')).toHaveAccessibleName(/^Process: stopped, generation/);
});

test('rule: paste and duplicate land in view beside the source, selected and focused, however many times repeated', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  const w = new WorkbenchPage(page);
  await d.goto();
  await d.newFlow();
  await d.addNode('work');
  await d.selectNode('work1');
  await page.keyboard.press('Control+C');
  const source = (await d.node('work1').boundingBox())!;
  for (let n = 2; n <= 10; n++) {
    await page.keyboard.press('Control+V');
    const pasted = d.node(`work${n}`);
    await expect(pasted).toBeVisible();
    await expect(d.propertiesTitle()).toHaveText(`Work node work${n}`);
    // Focused (React Flow's wrapper round the node's group takes the focus) and in view.
    await expect(pasted.locator('..')).toBeFocused();
    await expect.poll(() => w.inCanvasView(pasted)).toBe(true);
    // Beside the source on the flow: never more than three rings of copies away from it.
    const box = (await pasted.boundingBox())!;
    const now = (await d.node('work1').boundingBox())!;
    const panned = { x: now.x - source.x, y: now.y - source.y };
    expect(Math.abs(box.x - panned.x - source.x)).toBeLessThan(3 * (source.width + 60) + 20);
    expect(Math.abs(box.y - panned.y - source.y)).toBeLessThan(3 * (source.height + 40) + 20);
  }
  await page.keyboard.press('Control+D');
  const copy = d.node('work11');
  await expect(copy).toBeVisible();
  await expect(d.propertiesTitle()).toHaveText('Work node work11');
  await expect(copy.locator('..')).toBeFocused();
  await expect.poll(() => w.inCanvasView(copy)).toBe(true);
});

test('rule: Delete takes the node or edge the keyboard is on, or else the selection, never both', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  await d.addNode('work');
  await d.addNode('work');
  await expect(d.node('work2')).toBeVisible();
  // work2 is selected (it was just added); the keyboard goes to work1 and wears the ring there.
  await expect(d.propertiesTitle()).toHaveText('Work node work2');
  await page.keyboard.press('Tab');
  await d.node('work1').locator('..').focus();
  expect(await ringed(d.node('work1').locator('..'))).toBe(true);
  await page.keyboard.press('Delete');
  await expect(d.node('work1')).toHaveCount(0);
  await expect(d.node('work2')).toBeVisible();
  await expect(d.nodes()).toHaveCount(3);

  // An edge the keyboard is on goes alone; the selected node stays.
  const edge = d.edge('start', 'end');
  await edge.focus();
  expect(await ringed(edge)).toBe(true);
  await page.keyboard.press('Backspace');
  await expect(edge).toHaveCount(0);
  await expect(d.nodes()).toHaveCount(3);

  // Picked with the mouse (no focus ring), the selection goes, every node of it.
  await d.selectNode('start');
  await d.selectNode('end', ['Shift']);
  expect(await ringed(d.node('end').locator('..'))).toBe(false);
  await page.keyboard.press('Delete');
  await expect(d.nodes()).toHaveCount(1);
  await expect(d.node('work2')).toBeVisible();
});
