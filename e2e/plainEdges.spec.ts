import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

/** A split into `n` branches and their join, on a grid, as a generated large flow lies. */
function fanOutFlow(n: number) {
  const ids = Array.from({ length: n }, (_, i) => `b${i}`);
  const kinds = [
    { id: 'start', kind: 'start' },
    { id: 'split', kind: 'fanout' },
    ...ids.map((id) => ({ id, kind: 'work', set: { [id]: 'true' } })),
    { id: 'all', kind: 'join', depends: ids },
    { id: 'end', kind: 'end' },
  ];
  return {
    format: 'flow/1',
    id: 'wide',
    name: 'Wide fan-out',
    nodes: kinds.map((node, i) => ({
      ...node,
      position: { x: (i % 20) * 240, y: 200 + Math.floor(i / 20) * 140 },
    })),
    edges: [
      { id: 'e-start', from: 'start', to: 'split' },
      ...ids.map((id) => ({ id: `e-${id}`, from: 'split', to: id })),
      ...ids.map((id) => ({ id: `j-${id}`, from: id, to: 'all' })),
      { id: 'e-end', from: 'all', to: 'end' },
    ],
  };
}

test('rule: a view with more than 300 plain edges draws them in one layer, not as React Flow edges; a click on one selects it, and selected React Flow draws it', async ({
  page,
}) => {
  const designer = new DesignerPage(page);
  await designer.goto();
  await designer.importFile('wide.flow.json', JSON.stringify(fanOutFlow(400)));
  const layer = page.locator('.wf-plain-edges path.react-flow__edge-path');
  // The split's 400 edges are all near the opening view; they come a few frames apart.
  await expect.poll(() => layer.count()).toBeGreaterThan(300);
  await expect(designer.edge('split', 'b7')).toHaveCount(0);

  // A point of a path of the layer, in the page's pixels, where nothing but the pane lies under
  // it (no node over the edge there), as a person would aim at a line.
  const at = await page.evaluate(() => {
    const paths = [...document.querySelectorAll<SVGPathElement>('.wf-plain-edges path')];
    for (const path of paths.reverse())
      for (const f of [0.5, 0.4, 0.6, 0.3, 0.7]) {
        const p = path.getPointAtLength(path.getTotalLength() * f);
        const m = path.getScreenCTM()!;
        const x = m.a * p.x + m.c * p.y + m.e;
        const y = m.b * p.x + m.d * p.y + m.f;
        if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane'))
          return { x, y };
      }
    return undefined;
  });
  expect(at).toBeDefined();
  await page.mouse.click(at!.x, at!.y);
  await expect(designer.properties.getByRole('heading', { name: /^Edge / })).toBeVisible();
  // Selected, it is React Flow's again: one of the split's edges (many pass near any point of
  // the fan, and the one drawn last of those is taken) is drawn as a group, selected.
  const selected = designer.canvas.locator('.react-flow__edge.selected');
  await expect(selected).toHaveCount(1);
  await expect(selected).toHaveAttribute('aria-label', /^Edge from split to b\d+/);
});

test('rule: a dialog locking the page scroll restyles the body alone: its custom property is not inherited', async ({
  page,
}) => {
  const designer = new DesignerPage(page);
  await designer.goto();
  await page.getByRole('button', { name: 'Start with options…' }).click();
  await expect(page.getByRole('dialog', { name: 'Start a process' })).toBeVisible();
  const value = (selector: string) =>
    page.evaluate(
      (s) =>
        getComputedStyle(document.querySelector(s)!)
          .getPropertyValue('--removed-body-scroll-bar-size')
          .trim(),
      selector,
    );
  // The body holds it (the dialog locked the scroll); the canvas under it does not.
  expect(await value('body')).not.toBe('');
  expect(await value('.react-flow')).toBe('');
});

test("rule: from the keyboard, a node's property panel reaches each of its edges, the plain layer's included: a search finds one of 400, Enter selects it, and the properties show it", async ({
  page,
}) => {
  const designer = new DesignerPage(page);
  await designer.goto();
  await designer.importFile('wide.flow.json', JSON.stringify(fanOutFlow(400)));
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue('Wide fan-out');
  // The node itself is a Tab stop (React Flow's wrapper of it), and Enter selects it.
  await designer.canvas.locator('.react-flow__node[data-id="split"]').focus();
  await page.keyboard.press('Enter');
  await expect(designer.propertiesTitle()).toHaveText('Fan-out node split');
  const edges = designer.properties.getByRole('group', { name: 'Edges (401)' });
  await expect(edges).toBeVisible();
  // What fits is listed, out first, and the count says the rest is found by a search.
  const list = edges.getByRole('list', { name: 'Edges of split' });
  await expect(list.getByRole('button')).toHaveCount(25);
  await expect(list.getByRole('button').first()).toHaveText('to b0');
  await expect(edges.getByRole('status')).toHaveText('25 of 401 shown; type to find the others.');

  const search = edges.getByRole('searchbox', { name: 'Find an edge' });
  await search.focus();
  await page.keyboard.type('b399');
  await expect(list.getByRole('button')).toHaveCount(1);
  await expect(edges.getByRole('status')).toHaveText('1 of 1 shown.');
  await page.keyboard.press('Tab');
  await expect(list.getByRole('button', { name: 'to b399' })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(designer.propertiesTitle()).toHaveText('Edge e-b399');
  const selected = designer.canvas.locator('.react-flow__edge.selected');
  await expect(selected).toHaveCount(1);
  await expect(selected).toHaveAttribute('aria-label', /^Edge from split to b399/);
});
