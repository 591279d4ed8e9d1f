import { expect, test, type Locator, type Page } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

// Issue 26, point 6: nothing overflows sideways. The flow list, the process table and every
// panel fit their width at their default and their minimum sizes; a long name is cut with an
// ellipsis and has a tooltip; two flows of one name show their ids; a flow's menu button stays
// in reach.

// Guards against a hang only (docs/decisions.md, "Limits are settings").
test.describe.configure({ timeout: 240_000 });

const LONG_NAME = `A flow whose name goes on ${'and on '.repeat(40)}`.slice(0, 200);
const FLOW_ID = 'long-named';

const longFlow = (id: string) =>
  JSON.stringify({
    format: 'flow/1',
    id,
    name: LONG_NAME,
    nodes: [
      { id: 'start', kind: 'start', position: { x: 0, y: 0 } },
      {
        id: 'sleep',
        kind: 'continue-after',
        on: [{ id: 'later', timer: 'P1D' }],
        position: { x: 240, y: 0 },
      },
      { id: 'end', kind: 'end', position: { x: 480, y: 0 } },
    ],
    edges: [
      { id: 'e1', from: 'start', to: 'sleep' },
      { id: 'e2', from: 'sleep', to: 'end', trigger: 'later' },
    ],
  });

/**
 * Every element under `root` that is wider inside than it shows, sideways: a scrollbar or a
 * spill. A text cut with an ellipsis (overflow hidden, text-overflow ellipsis) is not one; the
 * canvas's zoomed layer is not looked into, nor what is there for screen readers alone.
 */
function sideways(root: Locator): Promise<string[]> {
  return root.evaluate((top) => {
    const out: string[] = [];
    for (const el of [top, ...top.querySelectorAll('*')]) {
      if (!(el instanceof HTMLElement)) continue;
      if (el.closest('.react-flow, .visually-hidden, .wf-visually-hidden')) continue;
      if (el.clientWidth <= 1 || el.getClientRects().length === 0) continue;
      if (el.scrollWidth <= el.clientWidth + 1) continue;
      const style = getComputedStyle(el);
      const clipped = style.overflowX === 'hidden' || style.overflowX === 'clip';
      if (clipped && style.textOverflow === 'ellipsis') continue;
      // A text field scrolls its own text; not focused, it must end the text with an ellipsis.
      if (el instanceof HTMLInputElement && style.textOverflow === 'ellipsis') continue;
      const name = el.getAttribute('aria-label') ?? el.className ?? el.tagName;
      out.push(
        `${el.tagName.toLowerCase()}.${String(name).slice(0, 60)} (${el.scrollWidth} > ${el.clientWidth})`,
      );
    }
    return out;
  });
}

const OPPOSITE: Record<string, string> = {
  ArrowLeft: 'ArrowRight',
  ArrowRight: 'ArrowLeft',
  ArrowDown: 'ArrowUp',
  ArrowUp: 'ArrowDown',
};

/**
 * Shrinks a panel to its minimum size with its separator's arrow key: a step at a time until it
 * stops shrinking, or, for a panel that collapses past its minimum, one step back from collapsed
 * (which opens it at its minimum).
 */
async function toMinimum(page: Page, separator: string, key: string, panel: Locator) {
  await page.getByRole('separator', { name: separator }).focus();
  // Read without waiting: a collapsed panel draws nothing.
  const vertical = key === 'ArrowDown' || key === 'ArrowUp';
  const size = () =>
    panel.evaluateAll((els, v) => {
      const r = els[0]?.getBoundingClientRect();
      return r ? (v ? r.height : r.width) : 0;
    }, vertical);
  // A key's resize is drawn a frame or two later on a busy machine: read only once drawn, or a
  // collapse still on its way lands after the loop has stopped, and the panel is gone.
  const drawn = () =>
    page.evaluate(
      () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
    );
  let last = await size();
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press(key);
    await drawn();
    const now = await size();
    if (now === 0) {
      await page.keyboard.press(OPPOSITE[key]!);
      await drawn();
      break;
    }
    if (now >= last) break;
    last = now;
  }
  await expect(panel).toBeVisible();
  return size();
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
])
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('rule: a 200-character flow name and process id fit every panel at its default and its minimum size, cut with an ellipsis and a tooltip; two flows of one name show their ids; the menu button stays in reach', async ({
      page,
    }) => {
      const d = new DesignerPage(page);
      await d.goto();
      await d.importFile('long.flow.json', longFlow(FLOW_ID));
      await d.importFile('long-again.flow.json', longFlow(`${FLOW_ID}-2`));
      // Two flows of one name: each shows its id after the name, and its own menu button.
      const ids = [FLOW_ID, `${FLOW_ID}-2`];
      const items = ids.map((id) =>
        d.flows.getByRole('listitem').filter({ has: page.getByText(`(${id})`, { exact: true }) }),
      );
      await items[0]!.getByRole('button').first().click();
      await expect(d.flowName).toHaveValue(LONG_NAME);
      // A process of it: the table and the run view show its flow's name.
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      const process = page.getByRole('region', { name: /^Process / });
      await expect(process).toBeVisible();
      const table = page.getByRole('table', { name: 'Processes' });
      await expect(table.getByText(LONG_NAME, { exact: true })).toBeVisible();

      const side = page.getByRole('complementary', { name: 'Flows and node kinds' });
      const properties = page.getByRole('region', { name: 'Properties' });
      const run = page.locator('.run-view');
      const check = async (when: string) => {
        for (const [what, where] of [
          ['the flow list', side],
          ['the properties', properties],
          ['the run view', run],
          ['the top bar', page.getByRole('banner')],
        ] as const)
          expect(await sideways(where), `${what}, ${when}`).toEqual([]);
        expect(await sideways(table), `the process table, ${when}`).toEqual([]);
        // The long name is cut with an ellipsis, its whole self in a tooltip.
        for (const [n, item] of items.entries()) {
          const link = item.getByRole('button').first();
          await expect(link).toHaveAttribute('title', new RegExp(LONG_NAME.slice(0, 60)));
          const name = link.getByText(LONG_NAME, { exact: true });
          expect(await name.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
          expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
          // The id after it is in view, at least in part; the menu button is whole and works.
          const id = item.getByText(`(${ids[n]!})`, { exact: true });
          await expect(id).toBeInViewport();
          const menu = item.getByRole('button', { name: /^Actions for / });
          await item.hover();
          await expect(menu).toBeInViewport({ ratio: 1 });
          await menu.click();
          const opened = page.getByRole('menu');
          await expect(opened).toBeVisible();
          await expect(opened.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
          await page.keyboard.press('Escape');
          await expect(opened).toHaveCount(0);
        }
        await expect(d.flowName).toHaveAttribute('title', new RegExp(`^${LONG_NAME}`));
        // The flow's name in the table: cut, with a tooltip.
        const inTable = table.getByText(LONG_NAME, { exact: true });
        expect(
          await inTable.evaluate((el) => el.closest('[title]')?.getAttribute('title')),
        ).toContain(LONG_NAME);
        expect(await inTable.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
      };

      await check('at default sizes');
      // The minimums of Workbench.tsx and InspectorPanel.tsx (a step of a few pixels allowed).
      expect(await toMinimum(page, 'Resize the flow list', 'ArrowLeft', side)).toBeLessThan(175);
      expect(await toMinimum(page, 'Resize the properties', 'ArrowRight', properties)).toBeLessThan(
        235,
      );
      const list = page.locator('.process-table');
      expect(await toMinimum(page, 'Resize the process list', 'ArrowLeft', list)).toBeLessThan(255);
      // The run view's height is left at its default: this test is about widths.
      await check('at minimum sizes');
    });
  });
