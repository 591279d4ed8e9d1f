import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../scripts/chromium.ts';
import { ProcessesPage } from './fixtures/processesPage.ts';

// Time moves only when a test moves it (Playwright's clock): no test waits on the real clock.
const T0 = new Date('2026-01-01T00:00:00Z');
const DAY = '24:00:00';
const NIGHTLY = 'Nightly refresh';
const prices = (read: number) => ({ prices: { read, history: [1, 2] } });

test('a reload in the middle of a run finds the process where it was, and it carries on', async ({
  page,
}) => {
  await page.clock.install({ time: T0 });
  const app = new ProcessesPage(page);
  await app.goto();
  await app.start(NIGHTLY, prices(0));
  await expect(app.status(app.first)).toHaveText('waiting');
  expect(await app.context(app.first)).toMatchObject({ prices: { read: 1 } });

  await page.reload();
  await expect(app.status(app.first)).toHaveText('waiting');
  expect(await app.context(app.first)).toMatchObject({ prices: { read: 1 } });

  await page.clock.fastForward(DAY);
  await expect(app.wakes(app.first)).toHaveText('1');
  expect(await app.context(app.first)).toMatchObject({ prices: { read: 2 } });
  await expect(app.status(app.first)).toHaveText('waiting');
});

test('two pages of one workspace wake a sleeping process exactly once', async ({ context }) => {
  await context.clock.install({ time: T0 });
  const one = new ProcessesPage(await context.newPage());
  await one.goto();
  await one.start(NIGHTLY, prices(0));
  const two = new ProcessesPage(await context.newPage());
  await two.goto();
  await expect(two.items).toHaveCount(1);

  // Both tabs' schedulers fall due together; each tries to wake the process.
  await context.clock.fastForward(DAY);
  for (const app of [one, two]) {
    await expect(app.wakes(app.first)).toHaveText('1');
    expect(await app.context(app.first)).toMatchObject({ prices: { read: 2 } });
  }
  // Give both schedulers another round: a second wake would show here.
  await context.clock.fastForward('01:00');
  for (const app of [one, two]) await expect(app.wakes(app.first)).toHaveText('1');
});

test('a process left asleep when the browser closed wakes once and finishes when it opens after its due time', async () => {
  const testInfo = test.info();
  const profile = mkdtempSync(join(tmpdir(), 'wakeflow-profile-'));
  const launch = () =>
    chromium.launchPersistentContext(profile, {
      executablePath: findChromium(),
      args: [...CHROMIUM_ARGS],
      baseURL: testInfo.project.use.baseURL,
    });
  try {
    let browser = await launch();
    await browser.clock.install({ time: T0 });
    let app = new ProcessesPage(await browser.newPage());
    await app.goto();
    // The first run reads prices the seventh time; the first wake then takes the edge to the end.
    await app.start(NIGHTLY, prices(6));
    await expect(app.status(app.first)).toHaveText('waiting');
    await browser.close();

    browser = await launch();
    await browser.clock.install({ time: new Date(T0.getTime() + 36 * 3_600_000) });
    app = new ProcessesPage(await browser.newPage());
    await app.goto();
    await expect(app.status(app.first)).toHaveText('done');
    await expect(app.wakes(app.first)).toHaveText('1');
    expect(await app.context(app.first)).toMatchObject({ prices: { read: 7 } });
    await browser.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});
