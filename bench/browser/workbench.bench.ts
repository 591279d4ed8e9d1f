import type { Browser, Page } from '@playwright/test';
import { LOOP_FLOW } from '../../test-support/loopFlow.ts';
import { addReactProbe } from '../../test-support/reactCommits.ts';
import { installRenderProbe, type RenderProbe } from '../../test-support/renderProbe.ts';
import { serve } from './serve.ts';

/**
 * 6. Renders in the workbench (production build, Chromium, 1280×720): the 8-node loop
 * (loopFlow.ts) imported, started with Start and inspected, then (a) idle for IDLE_MS, when
 * only the clock's text should render, once a second (the countdowns, in minutes, may change
 * once); (b) one timer wake (Wake now), which should render the nodes and panels whose data
 * changed. Figures are counts of components rendered, by what they draw.
 */
export interface WorkbenchResult {
  /** The flow inspected. */
  flow: string;
  idleMs: number;
  idle: { total: number; byComponent: Record<string, number> };
  wake: { total: number; byComponent: Record<string, number> };
}

const IDLE_MS = 5000;

const probe = (page: Page) =>
  page.evaluateHandle(() => (window as unknown as { __wfRenders: RenderProbe }).__wfRenders);

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export async function workbenchBench(
  browser: Browser,
  appDir: string,
  log: (line: string) => void,
): Promise<WorkbenchResult> {
  const server = await serve(appDir);
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await addReactProbe(page, installRenderProbe);
    await page.goto(server.url);
    await page.getByLabel('Flow file to import').setInputFiles({
      name: 'loop.flow.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(LOOP_FLOW)),
    });
    await page
      .getByRole('region', { name: 'Designer' })
      .getByRole('status')
      .filter({ hasText: 'Imported' })
      .waitFor();
    // Start starts the flow that is open: the one imported.
    await page
      .getByLabel('Flow name')
      .and(page.locator(`[value="${LOOP_FLOW.name}"]`))
      .waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const status = page.getByRole('region', { name: /^Process / }).getByLabel('Process status');
    await status.filter({ hasText: 'waiting' }).waitFor();
    // Let the start's last redraws land before counting.
    await page.waitForTimeout(1500);

    log(`workbench: counting renders while idle for ${IDLE_MS / 1000} s …`);
    const p = await probe(page);
    await p.evaluate((x) => x.start());
    await page.waitForTimeout(IDLE_MS);
    const idle = await p.evaluate((x) => x.stop());

    log('workbench: counting renders for one timer wake …');
    await p.evaluate((x) => x.start());
    await page
      .getByRole('toolbar', { name: 'Process controls' })
      .getByRole('button', { name: 'Wake now', exact: true })
      .click();
    await page
      .getByRole('listbox', { name: 'Journal entries' })
      .getByRole('option')
      .filter({ hasText: 'woke at wait1' })
      .first()
      .waitFor();
    await page.waitForTimeout(1000);
    const wake = await p.evaluate((x) => x.stop());
    return {
      flow: LOOP_FLOW.name,
      idleMs: IDLE_MS,
      idle: { total: sum(idle), byComponent: idle },
      wake: { total: sum(wake), byComponent: wake },
    };
  } finally {
    await context.close();
    await server.close();
  }
}
