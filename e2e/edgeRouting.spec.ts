import { expect, test, type Page } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';
import { exampleFlowNames } from './fixtures/exampleFlowNames.ts';

test.use({ viewport: { width: 1440, height: 900 } });
// Guards against a hang only (docs/decisions.md, "Limits are settings"): a test here walks every
// shipped example.
test.describe.configure({ timeout: 240_000 });

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Drawn {
  nodes: (Box & { id: string })[];
  edges: { name: string; from: string; to: string; points: { x: number; y: number }[] }[];
  labels: (Box & { title: string })[];
}

/**
 * The canvas's geometry in flow coordinates (so the view's zoom and pan do not matter): every
 * node's box, every edge's drawn line sampled every 2 px along its length, every edge label's box.
 */
function drawn(page: Page): Promise<Drawn> {
  return page.evaluate(() => {
    const translate = (el: HTMLElement) => {
      const m = /translate\((-?[\d.]+)px,\s*(-?[\d.]+)px\)\s*$/.exec(el.style.transform);
      return m ? { x: Number(m[1]), y: Number(m[2]) } : { x: NaN, y: NaN };
    };
    const canvas = document.querySelector('[aria-label="Flow canvas"]')!;
    const nodes = [...canvas.querySelectorAll<HTMLElement>('.react-flow__node')].map((el) => ({
      id: el.dataset.id!,
      ...translate(el),
      width: el.offsetWidth,
      height: el.offsetHeight,
    }));
    const edges = [...canvas.querySelectorAll<SVGGElement>('[aria-label^="Edge from "]')].map(
      (g) => {
        const name = g.getAttribute('aria-label')!;
        const [, from, to] = /^Edge from (\S+) to (\S+?)(?:,|$)/.exec(name)!;
        const path = g.querySelector<SVGPathElement>('path.react-flow__edge-path')!;
        const length = path.getTotalLength();
        const points = [];
        for (let at = 0; at <= length; at += 2) {
          const p = path.getPointAtLength(at);
          points.push({ x: p.x, y: p.y });
        }
        return { name, from: from!, to: to!, points };
      },
    );
    const labels = [...canvas.querySelectorAll<HTMLElement>('.wf-edge-label')].map((el) => {
      const at = translate(el);
      return {
        title: el.title,
        x: at.x - el.offsetWidth / 2,
        y: at.y - el.offsetHeight / 2,
        width: el.offsetWidth,
        height: el.offsetHeight,
      };
    });
    return { nodes, edges, labels };
  });
}

const inside = (p: { x: number; y: number }, b: Box) =>
  p.x > b.x && p.x < b.x + b.width && p.y > b.y && p.y < b.y + b.height;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** What is drawn wrong: an edge through a node it does not join, a label over a node. */
function crossings(d: Drawn): string[] {
  const out: string[] = [];
  for (const e of d.edges)
    for (const n of d.nodes)
      if (n.id !== e.from && n.id !== e.to && e.points.some((p) => inside(p, n)))
        out.push(`${e.name} crosses ${n.id}`);
  for (const l of d.labels)
    for (const n of d.nodes) if (overlap(l, n)) out.push(`the label of ${l.title} is over ${n.id}`);
  return out;
}

test('rule (issue 26, point 7): after Shift+L, no edge of any example passes through a node it does not join, and no edge label lies over a node', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  const undo = d.toolbar.getByRole('button', { name: 'Undo' });
  for (const name of exampleFlowNames()) {
    await d.openFlow(name);
    await expect(d.nodes().first()).toBeVisible();
    await expect(undo).toBeDisabled();
    await page.keyboard.press('Shift+L');
    // The layout is one edit: Undo turns on once it is in the drawing.
    await expect(undo).toBeEnabled();
    // Edges are routed as their nodes are measured: read once two reads agree.
    let last = '';
    await expect
      .poll(async () => {
        const now = JSON.stringify(await drawn(page));
        const same = now === last;
        last = now;
        return same;
      })
      .toBe(true);
    const geometry = JSON.parse(last) as Drawn;
    expect(geometry.nodes.length, name).toBeGreaterThan(1);
    expect(geometry.edges.length, name).toBeGreaterThan(0);
    for (const n of geometry.nodes) expect(Number.isFinite(n.x), `${name} ${n.id}`).toBe(true);
    expect(crossings(geometry), name).toEqual([]);
  }
});

test('rule (issue 26, point 7): a node added from the connect list lands after its source, to its right, from the keyboard and from a connection dropped to its left', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.newFlow();
  const right = async (source: string, added: string) => {
    const a = (await d.node(source).boundingBox())!;
    const b = (await d.node(added).boundingBox())!;
    expect(b.x, `${added} right of ${source}`).toBeGreaterThanOrEqual(a.x + a.width);
  };

  // From the keyboard: C on the focused start, then on the new node, focused when it is made.
  await page.getByRole('link', { name: 'Skip to the canvas' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('c');
  await d.pick('start', 'work', 'New Work node');
  await expect(d.edge('start', 'work1')).toHaveCount(1);
  await right('start', 'work1');
  await page.keyboard.press('c');
  await d.pick('work1', 'work', 'New Work node');
  await expect(d.edge('work1', 'work2')).toHaveCount(1);
  await right('work1', 'work2');

  // A connection dragged from work2 and dropped left of start: the new node still goes after work2.
  await d.fitView();
  const start = (await d.node('start').boundingBox())!;
  const canvas = (await d.canvas.boundingBox())!;
  await d.dropConnection('work2', { x: start.x - canvas.x - 40, y: start.y - canvas.y + 120 });
  await d.picker('work2').getByRole('option', { name: 'New Work node' }).click();
  await expect(d.edge('work2', 'work3')).toHaveCount(1);
  await right('work2', 'work3');
});
