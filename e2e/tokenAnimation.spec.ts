import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

const ORDER = 'Order with approval and a timeout';
const FIRST_CONTEXT = { value: { order: { lines: [{ price: 2, qty: 3 }] } } };

/** The ids of the nodes marked "Ran in the last step" on the canvas, in document order. */
function markedNodes(app: InspectorPage): Promise<string[]> {
  return app.canvas
    .getByRole('note', { name: 'Ran in the last step', exact: true })
    .evaluateAll((marks) =>
      marks.map((m) => {
        const name = m.closest('[role="group"]')?.getAttribute('aria-label') ?? '';
        return /^[a-z -]+ node (\S+?)(?::|,|$)/.exec(name)?.[1] ?? name;
      }),
    );
}

/** The nodes the journal entries from index `from` on say ran ("ran place"). */
async function journalRan(app: InspectorPage, from: number): Promise<string[]> {
  const texts = (await app.journal.allTextContents()).slice(from);
  return texts.flatMap((t) => {
    const m = /\bran (\S+)/.exec(t);
    return m ? [m[1]!] : [];
  });
}

/**
 * The token an edge holds after a step: the path its animation declares, and whether that is
 * the path the edge is drawn along. Read from the DOM, not timed: the token stays, faded, until
 * the next step.
 */
function tokenOn(edge: Locator): Promise<{ path: string | null; alongEdge: boolean } | null> {
  return edge.evaluate((el) => {
    const motion = el.querySelector('animateMotion');
    if (!motion) return null;
    const drawn = el.querySelector('path[marker-end], path')?.getAttribute('d') ?? null;
    const path = motion.getAttribute('path');
    return { path, alongEdge: path !== null && path === drawn };
  });
}

/** How many tokens the canvas holds. */
const tokens = (app: InspectorPage) =>
  app.canvas.evaluate((el) => el.querySelectorAll('animateMotion').length);

const edgeFrom = (app: InspectorPage, from: string, to: string) =>
  app.canvas.getByRole('group', { name: new RegExp(`^Edge from ${from} to ${to}(,|$)`) });

test('rule: Step runs a token along the edge it took and marks the nodes the journal says ran, until the next step', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const id = await app.start(ORDER, FIRST_CONTEXT, { paused: true });
  await app.inspect(id);
  await expect(app.controls.getByRole('checkbox', { name: 'Animate steps' })).toBeChecked();
  expect(await markedNodes(app)).toEqual([]);

  let before = await app.journal.count();
  await app.control('Step').click();
  await expect(app.process.getByLabel('Visits')).toHaveText('start 1');
  await expect.poll(() => markedNodes(app)).toEqual(['start']);
  expect(await journalRan(app, before)).toEqual(['start']);
  // The token runs along the edge drawn from start to place, and on no other edge.
  expect(await tokenOn(edgeFrom(app, 'start', 'place'))).toMatchObject({ alongEdge: true });
  expect(await tokens(app)).toBe(1);

  before = await app.journal.count();
  await app.control('Step').click();
  // The next step clears the marks of the one before: place ran, start is no longer marked.
  await expect.poll(() => markedNodes(app)).toEqual(['place']);
  expect(await journalRan(app, before)).toEqual(['place']);
  expect(await tokenOn(edgeFrom(app, 'place', 'await'))).toMatchObject({ alongEdge: true });
  expect(await tokenOn(edgeFrom(app, 'start', 'place'))).toBeNull();
  expect(await tokens(app)).toBe(1);

  // The marks are described to a screen reader, and axe finds nothing, in both themes.
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    const axe = await new AxeBuilder({ page }).include('.react-flow').analyze();
    expect(axe.violations, theme).toEqual([]);
  }

  // A Run takes the process to its wait: the step after it ran no node, so nothing is marked.
  await app.runUntil('waiting');
  await expect.poll(() => markedNodes(app)).toEqual([]);
  expect(await tokens(app)).toBe(0);
});

test('rule: a Run marks every node it ran and runs a token along each edge it took; with "Animate steps" off (kept across a reload) no token runs, the marks stay', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const id = await app.start(ORDER, FIRST_CONTEXT, { paused: true });
  await app.inspect(id);
  const before = await app.journal.count();
  await app.runUntil('waiting');
  await expect.poll(() => markedNodes(app)).toEqual(['start', 'place']);
  expect(await journalRan(app, before)).toEqual(['start', 'place']);
  expect(await tokenOn(edgeFrom(app, 'start', 'place'))).toMatchObject({ alongEdge: true });
  expect(await tokenOn(edgeFrom(app, 'place', 'await'))).toMatchObject({ alongEdge: true });
  expect(await tokens(app)).toBe(2);

  const setting = app.controls.getByRole('checkbox', { name: 'Animate steps' });
  await setting.uncheck();
  await app.reload();
  const other = await app.start(ORDER, FIRST_CONTEXT, { paused: true });
  await app.inspect(other);
  await expect(setting).not.toBeChecked();
  await app.control('Step').click();
  await expect.poll(() => markedNodes(app)).toEqual(['start']);
  expect(await tokens(app)).toBe(0);
  // On again: the next step's token runs.
  await setting.check();
  await app.control('Step').click();
  await expect.poll(() => markedNodes(app)).toEqual(['place']);
  expect(await tokenOn(edgeFrom(app, 'place', 'await'))).toMatchObject({ alongEdge: true });
});

test('rule: with the system asking for reduced motion no token runs, and the setting says why', async ({
  page,
}) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const app = new InspectorPage(page);
  await app.goto();
  const id = await app.start(ORDER, FIRST_CONTEXT, { paused: true });
  await app.inspect(id);
  const setting = app.controls.getByRole('checkbox', { name: 'Animate steps' });
  await expect(setting).toHaveAccessibleDescription(/reduced motion/);
  await app.control('Step').click();
  await expect.poll(() => markedNodes(app)).toEqual(['start']);
  expect(await tokens(app)).toBe(0);
});
