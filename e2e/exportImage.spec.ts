import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

test.use({ viewport: { width: 1440, height: 900 } });

test('the daily loop exports as a picture of its design: an SVG with all 9 edges and their labels, under 300 kB, no run badges; and a PNG', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.openFlow('Nightly refresh');
  await expect(d.edge('sleep', 'read')).toHaveAccessibleName(/closes the loop/);

  const svg = await d.download('Export SVG');
  expect(svg.name).toBe('nightly-refresh.svg');
  expect(svg.text.length).toBeLessThan(300_000);
  const doc = await page.evaluate((text) => {
    const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
    const edges = [...parsed.querySelectorAll('path[marker-end]')];
    return {
      error: parsed.querySelector('parsererror')?.textContent ?? null,
      edges: edges.length,
      // Every edge line is drawn: it has a stroke and a width.
      stroked: edges.every(
        (p) =>
          (p.getAttribute('stroke') ?? 'none') !== 'none' &&
          +p.getAttribute('stroke-width')! >= 1.5,
      ),
      text: [...parsed.querySelectorAll('text')].map((t) => t.textContent),
    };
  }, svg.text);
  expect(doc.error).toBeNull();
  expect(doc.edges).toBe(9);
  expect(doc.stroked).toBe(true);
  // Every node's title and every edge's label, offscreen ones too.
  for (const title of ['start', 'Re-read prices', 'Mark checked', 'Enrich', 'both', 'done'])
    expect(doc.text).toContain(title);
  expect(doc.text).toContain('prices.read >= 7');
  expect(doc.text).toContain('↻ loop · prices.read < 7');
  // A picture of the design, not of a run.
  expect(doc.text.join(' ')).not.toMatch(/waiting|visits|gen \d/);

  const png = page.waitForEvent('download');
  await d.chooseExport('Export PNG');
  const pngBytes = await readFile(await (await png).path());
  // The PNG signature: \x89 P N G.
  expect([...pngBytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  expect(pngBytes.length).toBeGreaterThan(10_000);
});
