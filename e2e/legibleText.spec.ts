import { expect, test, type Page } from '@playwright/test';
import { WorkbenchPage } from './fixtures/workbenchPage.ts';

// Issue 26, point 5: no text of the workbench is under 12 px at 100 % page zoom, in any panel.
// The canvas's own text is drawn at the canvas's zoom (its opening view keeps it legible), so
// what is inside React Flow's zoomed viewport is measured by the canvas's own rules, not here.

const MIN_PX = 12;

/** Every visible text node outside the canvas's zoomed layer whose font is under MIN_PX. */
function smallTexts(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el || el.closest('.react-flow__viewport, [aria-hidden="true"]')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const box = range.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.opacity === '0') continue;
      const size = parseFloat(style.fontSize);
      if (size < min)
        out.push(
          `${size}px: "${text.slice(0, 40)}" in <${el.tagName.toLowerCase()} class="${el.className}">`,
        );
    }
    return out;
  }, MIN_PX);
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
])
  for (const colorScheme of ['light', 'dark'] as const)
    test(`rule: no text of the workbench is under ${MIN_PX} px at ${viewport.width}×${viewport.height} in the ${colorScheme} theme, a process inspected`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ colorScheme, viewport });
      const page = await context.newPage();
      const app = new WorkbenchPage(page);
      await app.goto();
      await app.start.click();
      await expect(app.process.getByLabel('Process status')).toHaveText('waiting');
      await expect(app.panel(/^Journal/)).toBeVisible();
      expect(await smallTexts(page)).toEqual([]);
      await context.close();
    });
