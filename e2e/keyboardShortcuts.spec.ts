import { expect, test, type Page } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

/** Which of the workbench's areas holds the keyboard's focus now, by its accessible name. */
const focusedArea = (page: Page) =>
  page.evaluate(() => {
    const at = document.activeElement;
    const areas: [string, string][] = [
      ['flow list', '.designer-side'],
      ['canvas', '#flow-canvas'],
      ['properties', '.designer-props'],
      ['run view', '.run-view'],
    ];
    return areas.find(([, selector]) => document.querySelector(selector)?.contains(at))?.[0];
  });

test('rule: F6 moves focus from area to area (flow list, canvas, properties, run view, and round), Shift+F6 back; the panel separators have names', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.openFlow('Nightly refresh');
  // From nowhere in particular (the page itself), F6 goes to the first area.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const visited: (string | undefined)[] = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('F6');
    visited.push(await focusedArea(page));
  }
  expect(visited).toEqual(['flow list', 'canvas', 'properties', 'run view', 'flow list']);
  await page.keyboard.press('Shift+F6');
  expect(await focusedArea(page)).toBe('run view');
  await page.keyboard.press('Shift+F6');
  expect(await focusedArea(page)).toBe('properties');

  for (const name of [
    'Resize the flow list',
    'Resize the properties',
    'Resize the run view',
    'Resize the process list',
  ])
    await expect(page.getByRole('separator', { name })).toHaveCount(1);
});

test('rule: Shift+L lays the flow out, Shift+1 fits it to the view, Ctrl+Enter starts it, as the help lists them', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.openFlow('Nightly refresh');
  // Start dragged to the right of read: the layout has something to mend.
  const readBox = (await d.node('read').boundingBox())!;
  const canvas = (await d.canvas.boundingBox())!;
  await d.moveNode('start', { x: readBox.x - canvas.x + 200, y: readBox.y - canvas.y + 160 });
  await page.keyboard.press('Shift+L');
  await expect
    .poll(async () => (await d.node('start').boundingBox())!.x)
    .toBeLessThan((await d.node('read').boundingBox())!.x);

  // Zoomed far in, Shift+1 shows the view the canvas's Fit View control shows.
  const zoomIn = d.canvas.getByRole('button', { name: 'Zoom In' });
  const zoomedIn = async () => {
    for (let i = 0; i < 12 && (await zoomIn.isEnabled()); i++) await zoomIn.click();
  };
  const view = () =>
    page.evaluate(() => document.querySelector('.react-flow__viewport')!.getAttribute('style'));
  await zoomedIn();
  const near = await view();
  await d.fitView();
  await expect.poll(view).not.toBe(near);
  const fitted = await view();
  await zoomedIn();
  await expect.poll(view).not.toBe(fitted);
  await page.keyboard.press('Shift+1');
  await expect.poll(view).toBe(fitted);

  await page.keyboard.press('Control+Enter');
  const process = page.getByRole('region', { name: /^Process / });
  await expect(process).toBeVisible();
  await expect(process.getByLabel('Process status')).not.toBeEmpty();

  await page.keyboard.press('?');
  const help = page.getByRole('table', { name: 'Keyboard shortcuts' });
  for (const keys of ['Shift+L', 'Shift+1', 'Ctrl+Enter', 'F6, Shift+F6'])
    await expect(help.getByRole('rowheader', { name: keys, exact: true })).toHaveCount(1);
});
