import { expect, test, type Page } from '@playwright/test';
import { LOOP_FLOW } from '../test-support/loopFlow.ts';
import { addReactProbe } from '../test-support/reactCommits.ts';
import { installRenderProbe, type RenderProbe } from '../test-support/renderProbe.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

const T0 = new Date('2026-01-01T00:00:00Z');

/**
 * Components rendered, by what they draw, while Playwright's clock runs `ms` (no real wait). The
 * clock is paused meanwhile: an installed clock also flows with real time, so on a slow machine
 * the window held `ms` plus however long the calls took, and now and then one tick more.
 */
async function rendersWhile(page: Page, ms: number): Promise<Record<string, number>> {
  const probe = await page.evaluateHandle(
    () => (window as unknown as { __wfRenders: RenderProbe }).__wfRenders,
  );
  // A second ahead: pausing at a time already gone by is refused.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  await probe.evaluate((p) => p.start());
  await page.clock.runFor(ms);
  const rendered = await probe.evaluate((p) => p.stop());
  await page.clock.resume();
  return rendered;
}

/**
 * The app on Playwright's clock with the render probe, a process started (of `start`, after
 * `before`) and inspected, asleep at `sleepsAt`, and the start's last redraws landed.
 */
async function inspectAsleep(
  page: Page,
  sleepsAt: string,
  start: (app: InspectorPage) => Promise<string>,
): Promise<InspectorPage> {
  await page.clock.install({ time: T0 });
  await addReactProbe(page, installRenderProbe);
  const app = new InspectorPage(page);
  await app.goto();
  const id = await start(app);
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  await expect(app.journal.last()).toContainText(`fell asleep at ${sleepsAt}`);
  await page.clock.runFor(2000);
  return app;
}

test('rule: idle with a process inspected, nothing renders but the clock text (and a countdown when its text changes)', async ({
  page,
}) => {
  const app = await inspectAsleep(page, 'sleep', (a) =>
    a.start('Nightly refresh', { value: { prices: { read: 0, history: [1] } } }),
  );

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

/**
 * What one timer wake of the 8-node loop may render, by what each component draws: the run
 * badges of the nodes it visited, the loop's closing edge (its pass count), the process's row,
 * and the panels of the process whose reading changed. Nothing else: no button, no tooltip, no
 * icon, no top bar, sidebar, palette, properties or clock controls, and not the run view round
 * the panels (its layout, separators, header and the panels' error boundaries), which draws
 * which process is inspected and which panels it has, and a wake changes neither.
 */
const WAKE_MAY_RENDER = new Set([
  // The nodes' run badges and the loop's closing edge with its pass count.
  'react-flow__edge-path',
  'wf-edge-label',
  'wf-edge-label text',
  // The process table and the process's row (its countdown and wakes).
  'process-table',
  'wf-select',
  'selected',
  'selected text',
  // The inspected process: its controls (their status), panels and journal.
  'Process controls',
  'inspector-panel',
  // The live context and the snapshot's JSON, texts of their own (LongText) in their panels.
  'Live context',
  'Snapshot JSON',
  'Waits text',
  'journal-chart',
  'timeline',
  'Clock time text',
]);

test('rule: idle, the 8-node loop renders only the clock text; one timer wake renders only the nodes and panels whose data changed, each panel once (no button, header, run-view layout, palette or clock controls)', async ({
  page,
}) => {
  const app = await inspectAsleep(page, 'wait1', async (a) => {
    await a.importFlows('loop.flow.json', LOOP_FLOW);
    return a.start(LOOP_FLOW.name);
  });
  // Idle first: its countdowns are in minutes (a day's timer), so only the clock's text renders.
  expect(await rendersWhile(page, 5000)).toEqual({ 'Clock time text': 5 });

  const probe = await page.evaluateHandle(
    () => (window as unknown as { __wfRenders: RenderProbe }).__wfRenders,
  );
  await probe.evaluate((p) => p.start());
  await app.control('Wake now').click();
  // The loop ran once more: work1 is visited twice, and the process sleeps at wait1 again.
  await expect(app.node('work1').getByRole('note')).toHaveAccessibleName(/visits 2$/);
  await expect(app.journal.last()).toContainText('fell asleep at wait1');
  await expect(app.status).toHaveText('waiting');
  const rendered = await probe.evaluate((p) => p.stop());

  const names = Object.keys(rendered);
  const badges = names.filter((n) => n.startsWith('Process: '));
  const others = names.filter((n) => !n.startsWith('Process: '));
  expect(others.filter((n) => !WAKE_MAY_RENDER.has(n))).toEqual([]);
  // A wake is one reading of the process (Wake now, then the process read afresh), so each
  // panel on screen renders once at most, and the controls once: a wrapper round a panel that
  // renders with it (an error boundary handed the inspection) counts under the panel's name.
  const panels = await page.locator('.inspection .inspector-panel').count();
  expect(panels).toBeGreaterThan(0);
  expect(rendered['inspector-panel'], 'inspector-panel').toBeLessThanOrEqual(panels);
  expect(rendered['Process controls'] ?? 0, 'Process controls').toBeLessThanOrEqual(1);
  // What changed did render: the badges of the nodes visited again, the panels, the journal.
  expect(badges.length).toBeGreaterThan(0);
  for (const changed of ['inspector-panel', 'timeline', 'react-flow__edge-path'])
    expect(names, changed).toContain(changed);
});
