import { expect, test } from '@playwright/test';
import { WorkbenchPage } from './fixtures/workbenchPage.ts';

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
]) {
  test(`rule: at ${viewport.width}×${viewport.height} a newcomer sees the daily loop, presses Start, and has the canvas, the process and every control on one screen without scrolling`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    const app = new WorkbenchPage(page);
    await app.goto();

    // The first visit opens on the daily loop, with a getting-started panel naming it.
    await expect(app.flowName).toHaveValue('Nightly refresh');
    await expect(app.gettingStarted).toContainText('Nightly refresh');

    await app.start.click();
    // Start ran the flow on the canvas and shows the new process at once.
    await expect(app.process).toBeVisible();
    await expect(app.process).toContainText('Nightly refresh');
    await expect(app.process.getByLabel('Process status')).toHaveText('waiting');
    // Its position is on the canvas, in view: the sleeping node carries the process's badge,
    // and the canvas (which opens a flow at a readable zoom, so not always all of it) has
    // brought that node inside its visible rectangle.
    const sleep = app.canvas.getByRole('group', { name: /node sleep(:|,|$)/ });
    await expect(sleep.getByLabel(/^Process: waiting/)).toBeVisible();
    await expect.poll(() => app.inCanvasView(sleep)).toBe(true);

    for (const panel of [/^Snapshot/, /^Context/, /^Generations/, /^Journal/])
      await expect(app.panel(panel)).toBeInViewport();
    for (const control of ['Step', 'Run', 'Stop'])
      await expect(app.control(control)).toBeInViewport();
    await expect(app.process.getByRole('form', { name: 'Deliver event' })).toBeInViewport();
    await expect(app.clock.getByRole('button', { name: 'Advance clock' })).toBeInViewport();
    await expect(app.clock.getByRole('button', { name: 'Virtual time' })).toBeInViewport();
    await expect(app.canvas).toBeInViewport();
    // And nothing of the page scrolls: panels scroll inside.
    expect(await app.pageOverflow()).toEqual({ x: 0, y: 0 });
  });
}

test('rule: a form a process waits on is answered from the run view, in view with the canvas', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new WorkbenchPage(page);
  await app.goto();
  await page
    .getByRole('list', { name: 'Flows', exact: true })
    .getByRole('button', { name: 'Order with approval and a timeout', exact: true })
    .click();
  await expect(app.flowName).toHaveValue('Order with approval and a timeout');
  // Start starts the flow open now, on the example's first context.
  await app.start.click();
  const form = app.process.getByRole('form', { name: /^Approve this order\?/ });
  await expect(form).toBeInViewport();
  await expect(app.canvas).toBeInViewport();
  expect(await app.pageOverflow()).toEqual({ x: 0, y: 0 });
});

test('rule: the open flow, the process inspected, a collapsed panel and a dismissed welcome come back after a reload', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const app = new WorkbenchPage(page);
  await app.goto();
  await page
    .getByRole('list', { name: 'Flows', exact: true })
    .getByRole('button', { name: 'Fan-out with a join', exact: true })
    .click();
  await expect(app.flowName).toHaveValue('Fan-out with a join');
  await app.start.click();
  await expect(app.process).toBeVisible();
  const name = await app.process.getAttribute('aria-label');

  await page.getByRole('button', { name: 'Dismiss getting started' }).click();
  await expect(app.gettingStarted).toHaveCount(0);
  await app.togglePanel(/^Hide properties$/);
  await expect(page.getByRole('region', { name: 'Properties', exact: true })).toBeHidden();

  await page.reload();
  await expect(app.flowName).toHaveValue('Fan-out with a join');
  await expect(app.process).toHaveAttribute('aria-label', name!);
  await expect(app.gettingStarted).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Properties', exact: true })).toBeHidden();
  await app.togglePanel(/^Show properties$/);
  await expect(page.getByRole('region', { name: 'Properties', exact: true })).toBeVisible();
});

test('rule: the theme follows the system until one is chosen, and the choice is kept', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  const app = new WorkbenchPage(page);
  await app.goto();
  const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
  expect(await theme()).toBe('dark');

  await page.getByRole('button', { name: 'Theme' }).click();
  await page.getByRole('menuitem', { name: 'Light' }).click();
  expect(await theme()).toBe('light');
  await page.reload();
  await expect(app.flowName).not.toHaveValue('');
  expect(await theme()).toBe('light');

  await page.getByRole('button', { name: 'Theme' }).click();
  await page.getByRole('menuitem', { name: 'Follow the system' }).click();
  expect(await theme()).toBe('dark');
  await context.close();
});
