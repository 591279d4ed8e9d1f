/**
 * `npx tsx scripts/screenshots.ts [URL]`: the README's screenshots of the workbench, light and
 * dark, taken again (docs/screenshots/workbench-{light,dark}.png). Against a running app (by
 * default `npm run dev`'s http://127.0.0.1:5173/), in a fresh browser profile: the daily loop
 * started with Start, a day advanced on the virtual clock, at 1440×900.
 */
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium.ts';

const url = process.argv[2] ?? 'http://127.0.0.1:5173/';
const OUT = new URL('../docs/screenshots/', import.meta.url);

async function stage(page: Page): Promise<void> {
  await page.goto(url);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  const process = page.getByRole('region', { name: /^Process / });
  await process.getByLabel('Process status').filter({ hasText: 'waiting' }).waitFor();
  const clock = page.getByRole('group', { name: 'Clock' });
  await clock.getByRole('button', { name: 'Virtual time' }).click();
  await clock.getByLabel('Advance by (ISO-8601)').fill('P1D');
  await clock.getByRole('button', { name: 'Advance clock' }).click();
  await process
    .getByRole('listbox', { name: 'Journal entries' })
    .getByRole('option', { name: /woke at sleep by daily/ })
    .waitFor();
  // Toasts and tooltips gone before the picture.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(1000);
}

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: [...CHROMIUM_ARGS],
  });
  try {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        colorScheme: theme,
      });
      const page = await context.newPage();
      await stage(page);
      const file = new URL(`workbench-${theme}.png`, OUT);
      await page.screenshot({ path: file.pathname });
      process.stdout.write(`wrote ${file.pathname}\n`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
