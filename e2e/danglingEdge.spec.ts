import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

test.use({ viewport: { width: 1440, height: 900 } });

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const near = (box: Box, x: number, y: number, by: number) =>
  x >= box.x - by && x <= box.x + box.width + by && y >= box.y - by && y <= box.y + box.height + by;

test('a dangling edge from an imported file is drawn, to a placeholder beside its node that covers none, with its problem', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  // A file whose edges name a node it lacks, at either end: ghost (to) and phantom (from).
  await d.importFile(
    'dangling.flow.json',
    JSON.stringify({
      format: 'flow/1',
      id: 'dangling',
      nodes: [
        { id: 'start', kind: 'start', position: { x: 0, y: 0 } },
        { id: 'done', kind: 'end', position: { x: 240, y: 0 } },
      ],
      edges: [
        { id: 'e1', from: 'start', to: 'done' },
        { id: 'e2', from: 'start', to: 'ghost' },
        { id: 'e3', from: 'phantom', to: 'done' },
      ],
    }),
  );
  await expect(d.flowId).toHaveText('id: dangling');
  const ghost = d.canvas.getByRole('group', { name: /^Missing node ghost: / });
  const phantom = d.canvas.getByRole('group', { name: /^Missing node phantom: / });
  await expect(ghost).toBeVisible();
  await expect(phantom).toBeVisible();

  // Every edge is drawn, the dangling ones too, and each names its problem.
  await expect(d.edges()).toHaveCount(3);
  await expect(d.edge('start', 'ghost')).toHaveAccessibleName(/problem/);
  await expect(d.edge('phantom', 'done')).toHaveAccessibleName(/problem/);
  await expect(
    d.problemList.getByRole('button', { name: /^edge start → ghost: goes to "ghost"/ }),
  ).toBeVisible();

  // The placeholders cover no node of the flow.
  const boxes: Record<string, Box> = {};
  for (const [id, at] of [
    ['start', d.node('start')],
    ['done', d.node('done')],
    ['ghost', ghost],
    ['phantom', phantom],
  ] as const)
    boxes[id] = (await at.boundingBox())!;
  for (const placeholder of ['ghost', 'phantom'])
    for (const id of ['start', 'done'])
      expect(overlap(boxes[placeholder]!, boxes[id]!), `${placeholder} over ${id}`).toBe(false);

  // The line itself runs from start to the placeholder: its two ends are at the two boxes.
  const [from, to] = await d.edge('start', 'ghost').evaluate((el) => {
    const path = el.querySelector('path[marker-end], path') as SVGPathElement;
    const m = path.getScreenCTM()!;
    return [0, path.getTotalLength()].map((at) => {
      const p = path.getPointAtLength(at);
      return { x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
    });
  });
  expect(near(boxes.start!, from!.x, from!.y, 12), 'starts at start').toBe(true);
  expect(near(boxes.ghost!, to!.x, to!.y, 12), 'ends at the placeholder').toBe(true);
});
