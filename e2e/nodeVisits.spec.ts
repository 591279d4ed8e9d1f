import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

/** The per-node view of the node selected on the canvas. */
const visitsOf = (app: InspectorPage, node: string): Locator =>
  app.process.getByRole('region', { name: new RegExp(`^Visits of ${node}\\b`) });

/** One visit in it, by its heading ("Visit 2 · generation 1"). */
const visit = (panel: Locator, heading: string): Locator =>
  panel
    .getByRole('listitem')
    .filter({ has: panel.page().getByRole('heading', { name: heading, exact: true }) });

test('rule: selecting a node of an inspected process shows each visit by generation, what it read and what it wrote old → new; a continue-after shows the trigger that fired', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  // Nightly refresh loops back from its continue-after "sleep" to "read" while prices.read < 7.
  await app.startNightlyAsleep();
  await app.advanceBy('PT48H');
  await expect(app.journal.last()).toContainText('fell asleep at sleep');
  expect(await app.context()).toMatchObject({ prices: { read: 3 } });

  // Nothing selected: no per-node view.
  await expect(app.process.getByRole('region', { name: /^Visits of / })).toHaveCount(0);

  await app.selectNode('read');
  const read = visitsOf(app, 'read');
  await expect(read).toContainText('3 visits, newest first.');
  // Newest first, one per pass of the loop.
  await expect(read.getByRole('heading', { level: 4 })).toHaveText([
    'Visit 3 · generation 2',
    'Visit 2 · generation 1',
    'Visit 1 · generation 0',
  ]);
  const second = visit(read, 'Visit 2 · generation 1');
  const input = second.getByRole('region', { name: 'Read' });
  const output = second.getByRole('region', { name: 'Wrote' });
  // What its expression `prices.read + 1` read, as the pass found it, and what it wrote.
  await expect(input.getByRole('listitem')).toHaveText(['prices.read=1']);
  await expect(output.getByRole('listitem')).toHaveText([
    'prices.read1→2',
    'prices.stalefalse→false',
  ]);
  // Input and output side by side.
  const [inBox, outBox] = await Promise.all([input.boundingBox(), output.boundingBox()]);
  expect(outBox!.x).toBeGreaterThan(inBox!.x + inBox!.width - 1);

  await app.selectNode('sleep');
  const sleep = visitsOf(app, 'sleep');
  await expect(sleep.getByRole('heading', { level: 4 })).toHaveText([
    'Visit 3 · generation 2',
    'Visit 2 · generation 1',
    'Visit 1 · generation 0',
  ]);
  await expect(visit(sleep, 'Visit 3 · generation 2')).toContainText('waiting since');
  const fired = visit(sleep, 'Visit 2 · generation 1');
  await expect(fired).toContainText(/Fired: daily \(timer\) at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  // Its edges' conditions read prices.read after it woke: 2, so it looped back.
  await expect(fired.getByRole('region', { name: 'Read' }).getByRole('listitem')).toHaveText([
    'prices.read=2',
  ]);

  // A node no branch has reached yet.
  await app.selectNode('done');
  await expect(visitsOf(app, 'done')).toContainText('Not visited yet');

  // One more pass: the open view follows the process.
  await app.selectNode('read');
  await app.advanceBy('PT24H');
  await expect(read.getByRole('heading', { level: 4 }).first()).toHaveText(
    'Visit 4 · generation 3',
  );
});

test('rule: a long value is cut with an ellipsis to fit the panel and opens in place', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const history = Array.from({ length: 200 }, (_, i) => i);
  const id = await app.start('Nightly refresh', { value: { prices: { read: 0, history } } });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  // The sub-flow's node reads the long history.
  await app.openSubflow('b', 'Enrich');
  await app.selectNode('step');
  const step = visitsOf(app, 'b/step');
  const value = step.getByRole('region', { name: 'Read' }).locator('details');
  await expect(value).toHaveCount(1);
  const line = value.locator('summary code');
  // Cut to the panel's width with an ellipsis: the text is wider than its box.
  const fits = await line.evaluate((el) => [
    el.scrollWidth > el.clientWidth,
    getComputedStyle(el).textOverflow,
  ]);
  expect(fits).toEqual([true, 'ellipsis']);
  await value.locator('summary').click();
  await expect(value.locator('pre')).toContainText(JSON.stringify(history));
  const panel = await step.boundingBox();
  const pre = await value.locator('pre').boundingBox();
  expect(pre!.x + pre!.width).toBeLessThanOrEqual(panel!.x + panel!.width + 1);
});

for (const colorScheme of ['light', 'dark'] as const)
  test(`rule: the per-node view has no serious accessibility violation and no text under 12 px in the ${colorScheme} theme`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      colorScheme,
      viewport: { width: 1280, height: 720 },
    });
    const page = await context.newPage();
    const app = new InspectorPage(page);
    await app.goto();
    await app.startNightlyAsleep();
    await app.selectNode('read');
    const panel = visitsOf(app, 'read');
    await expect(panel.getByRole('heading', { level: 4 })).toHaveText(['Visit 1 · generation 0']);
    const result = await new AxeBuilder({ page }).include('.node-visits').analyze();
    const serious = result.violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    const small = await panel.evaluate((root) => {
      const out: string[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement!;
        if (!n.textContent?.trim() || el.getClientRects().length === 0) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 12) out.push(`${n.textContent.trim()} (${size} px)`);
      }
      return out;
    });
    expect(small).toEqual([]);
    await context.close();
  });
