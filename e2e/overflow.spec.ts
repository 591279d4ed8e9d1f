import { expect, test } from '@playwright/test';
import { DesignerPage } from './fixtures/designerPage.ts';

// Issue 26, point 6: nothing overflows sideways; two flows of one name are told apart.

test.use({ viewport: { width: 1280, height: 720 } });

test('rule: two flows of one name show their ids, each menu button stays in reach, and the flow list fits its width', async ({
  page,
}) => {
  const d = new DesignerPage(page);
  await d.goto();
  await d.flowLink('Nightly refresh').click();
  const { flow } = await d.exportFlow();
  await d.importFile('again.flow.json', JSON.stringify(flow));
  for (const id of [flow.id, `${flow.id}-2`]) {
    await expect(d.flowLink(`Nightly refresh (${id})`)).toBeVisible();
    const menu = page.getByRole('button', { name: `Actions for Nightly refresh (${id})` });
    // The list scrolls down to it; sideways, the whole button is in reach.
    await menu.scrollIntoViewIfNeeded();
    await expect(menu).toBeInViewport({ ratio: 1 });
  }
  // The list is cut to its width (long names end in an ellipsis), never scrolled sideways.
  const overflow = await d.flows.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
