import { expect, test } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// The app is opened paced by the page (`?pace=page`): the runtime's worker keeps the page's
// time, and the test fixes that time with Playwright's clock, moving it only when it says.
const T0 = Date.parse('2026-01-01T00:00:00Z');

/** A loop that counts a pass every two seconds: what a new designer tries first. */
const everyTwoSeconds = {
  format: 'flow/1',
  id: 'every-2s',
  name: 'Every two seconds',
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'tick', kind: 'work', set: { count: 'count + 1' } },
    { id: 'sleep', kind: 'continue-after', on: [{ id: 't', timer: 'PT2S' }] },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'tick' },
    { id: 'e2', from: 'tick', to: 'sleep' },
    { id: 'e3', from: 'sleep', to: 'tick' },
  ],
};

test('rule: a lone tab on real time wakes a new PT2S loop on time, pass after pass', async ({
  page,
}) => {
  await page.clock.setFixedTime(T0);
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('every-2s.flow.json', everyTwoSeconds);
  const id = await app.start('Every two seconds', { value: { count: 0 } });
  await expect(app.rowStatus(id)).toHaveText('waiting');
  await app.inspect(id);
  for (let pass = 1; pass <= 4; pass++) {
    await page.clock.setFixedTime(T0 + pass * 2000);
    await expect(app.rowWakes(id)).toHaveText(String(pass));
    await expect(app.liveContext).toContainText(`"count": ${pass + 1}`);
  }
});
/**
 * A loop that never waits for time to pass (`PT0S`), each pass a step that keeps the worker busy
 * for 20 ms (`$block`, a dev-server hook the page asks for): a run of half an hour however fast
 * the machine is (the step budget ends it), under every other bound.
 */
const neverWaits = {
  format: 'flow/1',
  id: 'never-waits',
  name: 'A loop that never waits',
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'spin', kind: 'work', set: { spun: '$block(20)' } },
    { id: 'again', kind: 'continue-after', on: [{ id: 'now', timer: 'PT0S' }] },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'spin' },
    { id: 'e2', from: 'spin', to: 'again' },
    { id: 'e3', from: 'again', to: 'spin' },
  ],
};
/** Each pass of a `PT0S` loop is a durable stop, so the run is listed waiting between passes. */
const RUNNING = /^(running|waiting)$/;

test('rule: a long run never locks the workspace: it is listed at once, another tab opens and works, and Stop there takes effect', async ({
  context,
}) => {
  const one = new InspectorPage(await context.newPage());
  await one.goto('/?test=block');
  await one.importFlows('never-waits.flow.json', neverWaits);
  const long = await one.start('A loop that never waits');
  // Start returned once the process was stored; it is running, and listed as such.
  await expect(one.rowStatus(long)).toHaveText(RUNNING);

  // The same tab starts and finishes another process while the long one runs.
  const nightly = await one.start('Nightly refresh', { value: { prices: { read: 0 } } });
  await expect(one.rowStatus(nightly)).toHaveText('waiting');
  await expect(one.rowStatus(long)).toHaveText(RUNNING);

  // A second tab opens the workspace (the flows listed, Start enabled) while the run goes on.
  const two = new InspectorPage(await context.newPage());
  await two.goto('/?test=block');
  await expect(two.rowStatus(long)).toHaveText(RUNNING);
  await two.inspect(long);
  await two.control('Stop').click();
  for (const app of [two, one]) await expect(app.rowStatus(long)).toHaveText('stopped');
  // Stop neither waited for the run to end nor found the process done or busy elsewhere.
  expect((await two.alert.allInnerTexts()).join(' ')).not.toMatch(/busy in another tab|is done/);
});

/** A sub-flow that calls itself twice: its live branches double at every level, without end. */
const callsItselfTwice = {
  format: 'flows/1',
  flows: [
    {
      format: 'flow/1',
      id: 'twice',
      name: 'Calls itself twice',
      nodes: [
        { id: 'start', kind: 'start' },
        { id: 'left', kind: 'subflow', flow: 'twice' },
        { id: 'right', kind: 'subflow', flow: 'twice' },
      ],
      edges: [
        { id: 'e1', from: 'start', to: 'left' },
        { id: 'e2', from: 'start', to: 'right' },
      ],
    },
  ],
};

test('rule: a flow that multiplies its branches fails at the bound on live branches, saying why, and the workspace stays usable', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('twice.flows.json', callsItselfTwice);
  const runaway = await app.start('Calls itself twice');
  await expect(app.rowStatus(runaway)).toHaveText('failed');
  await app.inspect(runaway);
  await expect(app.process).toContainText('live branches');
  // The rest of the workspace is listed and runs.
  const nightly = await app.start('Nightly refresh', { value: { prices: { read: 0 } } });
  await expect(app.rowStatus(nightly)).toHaveText('waiting');
  // What the failed run stored is small: the bound came before memory or the disk filled.
  const { usage } = await page.evaluate(() => navigator.storage.estimate());
  expect(usage ?? 0).toBeLessThan(5_000_000);
});

/** A loop that asks a person to approve each pass, and counts the approvals. */
const approvals = {
  format: 'flow/1',
  id: 'approvals',
  name: 'Approve each pass',
  nodes: [
    { id: 'start', kind: 'start' },
    {
      id: 'approve',
      kind: 'continue-after',
      on: [
        {
          id: 'ok',
          human: { prompt: 'Approve this pass?', fields: [{ name: 'yes', type: 'boolean' }] },
        },
      ],
    },
    { id: 'count', kind: 'work', set: { n: 'n + 1' } },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'approve' },
    { id: 'e2', from: 'approve', to: 'count' },
    { id: 'e3', from: 'count', to: 'approve' },
  ],
};

// The second click of a double-click is not sent (WaitForms.tsx); a second answer that does reach
// the runtime, after the wait has moved on, is refused with its message (humanInput.test.ts).
test('rule: a double-click on Send completes one pass, not two', async ({ page }) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('approvals.flow.json', approvals);
  const id = await app.start('Approve each pass', { value: { n: 0 } });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  await app.humanForm('Approve this pass?').getByRole('button', { name: 'Send answer' }).dblclick();
  await expect(app.liveContext).toContainText('"n": 1');
  // One click more answers the next pass: had the double-click sent two answers, this would be
  // the third, and the worker answers them in order.
  await app.humanForm('Approve this pass?').getByRole('button', { name: 'Send answer' }).click();
  await expect(app.liveContext).toContainText('"n": 2');
  await expect(app.status).toHaveText('waiting');
  expect(await app.context()).toEqual({ n: 2 });
});
