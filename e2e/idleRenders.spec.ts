import { expect, test, type Page } from '@playwright/test';
import { installRenderProbe, type RenderProbe } from '../bench/browser/renderProbe.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// The probe is serialized into the page; a bundler's name helper, if any, must exist there.
const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((f) => f);';
const T0 = new Date('2026-01-01T00:00:00Z');

/** Components rendered, by what they draw, while Playwright's clock runs `ms` (no real wait). */
async function rendersWhile(page: Page, ms: number): Promise<Record<string, number>> {
  const probe = await page.evaluateHandle(
    () => (window as unknown as { __wfRenders: RenderProbe }).__wfRenders,
  );
  await probe.evaluate((p) => p.start());
  await page.clock.runFor(ms);
  return probe.evaluate((p) => p.stop());
}

test('rule: idle with a process inspected, nothing renders but the clock text (and a countdown when its text changes)', async ({
  page,
}) => {
  await page.clock.install({ time: T0 });
  await page.addInitScript({ content: NAME_SHIM });
  await page.addInitScript(installRenderProbe);
  const app = new InspectorPage(page);
  await app.goto();
  const id = await app.start('Nightly refresh', { value: { prices: { read: 0, history: [1] } } });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  await expect(app.journal.last()).toContainText('fell asleep at sleep');
  // The start's last redraws land first.
  await page.clock.runFor(2000);

  // Real time: the clock's text each second; countdowns in minutes at most once in 5 s.
  const real = await rendersWhile(page, 5000);
  expect(real['Clock time text']).toBe(5);
  const others = Object.entries(real).filter(([name]) => name !== 'Clock time text');
  for (const [name, count] of others) {
    expect(
      ['Waits text', 'selected text'].includes(name) || name.startsWith('Process: waiting'),
      name,
    ).toBe(true);
    expect(count, name).toBeLessThanOrEqual(1);
  }

  // A paused virtual clock: nothing changes, so nothing renders at all.
  await app.useVirtualTime();
  await page.clock.runFor(2000);
  expect(await rendersWhile(page, 5000)).toEqual({});
});
