import { expect, test } from '@playwright/test';
import { DAY, formatInstant, HOUR, InspectorPage } from './fixtures/inspectorPage.ts';

// Every test starts on a fresh browser context, whose workspace holds the examples. Real time is
// Playwright's clock, from T0; the processes run on the app's virtual clock, which moves only when
// a test advances it.
const T0 = new Date('2026-01-01T00:00:00Z');
const NIGHTLY = 'Nightly refresh';
const ORDER = 'Order with approval and a timeout';
const prices = { prices: { read: 0, history: [1, 2] } };

test.use({ viewport: { width: 1400, height: 1000 } });

test.beforeEach(async ({ page }) => {
  await page.clock.install({ time: T0 });
});

test('the daily loop sleeps with its due time, and a day later has made a pass and read again', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const t = await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await expect(app.rowStatus(id)).toHaveText('waiting');
  await app.inspect(id);

  await expect(app.status).toHaveText('waiting');
  await expect(app.waits.getByRole('listitem')).toHaveText(
    `sleep (generation 0) waits for timer daily (PT24H) or event "prices.changed" — due ${formatInstant(t + DAY)} (in 1 d)`,
  );
  await expect(app.loopHead('read')).toHaveText(/^read\s*0\s*0$/);
  expect(await app.context()).toMatchObject({ prices: { read: 1 } });

  await app.advanceBy('P1D');
  await expect(app.clockTime).toHaveText(formatInstant(t + DAY));
  await expect(app.rowWakes(id)).toHaveText('1');
  await expect(app.status).toHaveText('waiting');
  // One pass of the loop headed by "read" began after the first: passes 1, and it is on pass 1.
  await expect(app.loopHead('read')).toHaveText(/^read\s*1\s*1$/);
  await expect(app.liveContext).toContainText('"read": 2');
  expect(await app.context()).toMatchObject({ prices: { read: 2, stale: false } });
  await expect(app.waits.getByRole('listitem')).toContainText(
    `sleep (generation 1) waits for timer daily (PT24H)`,
  );
  await expect(app.waits.getByRole('listitem')).toContainText(
    `due ${formatInstant(t + 2 * DAY)} (in 1 d)`,
  );
  await expect(app.journal.filter({ hasText: 'woke at sleep by daily' })).toHaveCount(1);
});

test('an event wakes the daily loop early and its payload lands in the context', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');

  const payload = { by: 'feed', items: [3, 4] };
  await app.deliverEvent('prices.changed', payload);
  await expect(app.journal.filter({ hasText: 'woke at sleep by kick' })).toHaveCount(1);
  await expect(app.rowWakes(id)).toHaveText('1');
  await expect(app.status).toHaveText('waiting');
  await expect(app.liveContext).toContainText('"read": 2');
  expect(await app.context()).toMatchObject({ lastChange: payload, prices: { read: 2 } });
  await expect(app.loopHead('read')).toHaveText(/^read\s*1\s*1$/);

  // An event nobody waits for is dropped, and the inspector says so.
  await app.deliverEvent('prices.vanished', {});
  await expect(app.alert).toContainText(`process ${id} is not waiting for "prices.vanished"`);
  await expect(app.rowWakes(id)).toHaveText('1');
});

test('a person answers the approval form of an order and the order ships', async ({ page }) => {
  const app = new InspectorPage(page);
  await app.goto();
  const id = await app.start(ORDER, { value: { order: { lines: [{ price: 2, qty: 3 }] } } });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  expect(await app.context()).toMatchObject({ order: { status: 'placed', total: 6 } });

  const form = app.humanForm('Approve this order?');
  await expect(form).toBeVisible();
  await form.getByRole('checkbox', { name: 'Approved' }).check();
  await form.getByRole('textbox', { name: 'Note to the customer' }).fill('Thank you');
  await form.getByRole('button', { name: 'Send answer' }).click();

  await expect(app.status).toHaveText('done');
  await expect(app.rowStatus(id)).toHaveText('done');
  await expect(form).toHaveCount(0);
  expect(await app.context()).toMatchObject({
    order: { status: 'shipped', total: 6 },
    approval: { approved: true, note: 'Thank you' },
  });
  await expect(app.journal.filter({ hasText: 'woke at await by decide' })).toHaveCount(1);
  await expect(app.journal.filter({ hasText: 'ran ship' })).toHaveCount(1);
});

test('the flow changes while a process sleeps; on waking it asks, and continues on the new flow', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  // Inspecting a process opens its flow on the canvas.
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  expect(await app.context()).toMatchObject({ prices: { read: 1 } });

  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(NIGHTLY);
  // Read ten at a time: a change to what runs, so the flow's signature changes.
  await app.setExpression('read', 1, 'prices.read + 10');
  await app.advanceBy('P1D');

  await expect(app.status).toHaveText('flow-changed');
  await expect(app.rowStatus(id)).toHaveText('flow-changed');
  await expect(app.flowChanged).toHaveAccessibleName(`The flow changed while ${id} slept`);
  await expect(app.flowChanged.getByRole('list', { name: 'Changes' })).toContainText(
    'node read changed',
  );
  for (const name of [
    'Continue on the new flow',
    'Keep the old version',
    'Restart',
    'Cancel the process',
  ])
    await expect(app.choice(name)).toBeEnabled();
  await expect(app.choice('Continue on the new flow')).toHaveAccessibleDescription(
    'go on from the same position with the flow as it is now',
  );
  // Nothing ran while the change waits for a decision.
  expect(await app.context()).toMatchObject({ prices: { read: 1 } });

  await app.choice('Continue on the new flow').click();
  await expect(app.flowChanged).toHaveCount(0);
  await expect(app.status).toHaveText('waiting');
  // The daily trigger that woke it still counts: it went round the loop, reading ten at a time.
  await expect(app.liveContext).toContainText('"read": 11');
  await expect(app.journal.filter({ hasText: 'resolved: continue' })).toHaveCount(1);
  await expect(app.journal.filter({ hasText: 'read wrote prices.read = 11' })).toHaveCount(1);
  await expect(app.loopHead('read')).toHaveText(/^read\s*1\s*1$/);
});

test('continue is unavailable when the node the process sleeps at is gone, and says why; restart runs the new flow', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(NIGHTLY);

  await app.deleteNode('sleep');
  await app.advanceBy('P1D');

  await expect(app.status).toHaveText('flow-changed');
  const changes = app.flowChanged.getByRole('list', { name: 'Changes' });
  await expect(changes).toContainText('node sleep removed');
  await expect(changes).toContainText('edge e7 removed');
  const cont = app.choice('Continue on the new flow');
  await expect(cont).toBeDisabled();
  await expect(cont).toHaveAccessibleDescription(/^Unavailable: .*"sleep" no longer exists/);
  for (const name of ['Keep the old version', 'Restart', 'Cancel the process'])
    await expect(app.choice(name)).toBeEnabled();

  await app.choice('Restart').click();
  await expect(app.flowChanged).toHaveCount(0);
  // From start on the same live context: read once more, then the branch ends where sleep was.
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({ prices: { read: 2 } });
  await expect(app.journal.filter({ hasText: 'resolved: restart' })).toHaveCount(1);
});

test('a reload in the middle finds every process as it was: status, context, snapshot and journal', async ({
  page,
}) => {
  // Two processes read before and after a reload, one by one.
  test.setTimeout(60_000);
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const nightly = await app.start(NIGHTLY, { value: prices });
  const order = await app.start(ORDER, { value: { order: { lines: [{ price: 5, qty: 1 }] } } });
  await app.advanceBy('P1D');
  await expect(app.rowWakes(nightly)).toHaveText('1');
  const clockBefore = await app.now();

  // What each process looks like before the reload.
  const seen = new Map<
    string,
    { status: string; context: unknown; waits: string; journal: number }
  >();
  for (const id of [nightly, order]) {
    await app.inspect(id);
    await expect(app.journal.last()).toContainText('fell asleep at');
    const waits = (await app.waits.innerText()).replace(/ \((in|due now)[^)]*\)/g, '');
    seen.set(id, {
      status: await app.status.innerText(),
      context: await app.context(),
      waits,
      journal: await app.journal.count(),
    });
  }
  expect(seen.get(nightly)).toMatchObject({ status: 'waiting', context: { prices: { read: 2 } } });
  expect(seen.get(order)).toMatchObject({ status: 'waiting', context: { order: { total: 5 } } });

  await app.reload();
  await expect(app.rows).toHaveCount(2);
  // The tab's virtual clock comes back with the reload, its mode and its time, and so does the
  // process inspected.
  await expect(app.clock.getByRole('button', { name: 'Virtual time' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect.poll(() => app.now()).toBeGreaterThanOrEqual(clockBefore);
  await expect(app.process).toHaveAccessibleName(`Process ${order}`);
  for (const id of [nightly, order]) {
    const before = seen.get(id)!;
    await expect(app.rowStatus(id)).toHaveText(before.status);
    await app.inspect(id);
    await expect(app.status).toHaveText(before.status);
    await expect(app.journal).toHaveCount(before.journal);
    expect(await app.context()).toEqual(before.context);
    expect((await app.waits.innerText()).replace(/ \((in|due now)[^)]*\)/g, '')).toBe(before.waits);
  }
  await expect(app.loopHead('read')).toHaveCount(0);
  await app.inspect(nightly);
  await expect(app.loopHead('read')).toHaveText(/^read\s*1\s*1$/);

  // And it carries on from there: the order's form still answers.
  await app.inspect(order);
  const form = app.humanForm('Approve this order?');
  await form.getByRole('textbox', { name: 'Note to the customer' }).fill('Out of stock');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({
    order: { status: 'rejected', reason: 'Out of stock' },
  });
});

/** A flow that writes to its context, and one that sleeps an hour and then copies what it finds. */
const sharing = {
  format: 'flows/1',
  flows: [
    {
      format: 'flow/1',
      id: 'writer',
      name: 'Shared writer',
      nodes: [
        { id: 'start', kind: 'start', position: { x: 0, y: 0 } },
        {
          id: 'write',
          kind: 'work',
          set: { note: '"from the writer"', count: '$exists(count) ? count + 1 : 1' },
          position: { x: 200, y: 0 },
        },
        { id: 'end', kind: 'end', position: { x: 400, y: 0 } },
      ],
      edges: [
        { id: 'e1', from: 'start', to: 'write' },
        { id: 'e2', from: 'write', to: 'end' },
      ],
    },
    {
      format: 'flow/1',
      id: 'reader',
      name: 'Shared reader',
      nodes: [
        { id: 'start', kind: 'start', position: { x: 0, y: 0 } },
        {
          id: 'nap',
          kind: 'continue-after',
          on: [{ id: 'hour', timer: 'PT1H' }],
          position: { x: 200, y: 0 },
        },
        { id: 'copy', kind: 'work', set: { copied: 'note' }, position: { x: 400, y: 0 } },
        { id: 'end', kind: 'end', position: { x: 600, y: 0 } },
      ],
      edges: [
        { id: 'e1', from: 'start', to: 'nap' },
        { id: 'e2', from: 'nap', to: 'copy' },
        { id: 'e3', from: 'copy', to: 'end' },
      ],
    },
  ],
};

test('two processes share one context: the one asleep sees the write of the other when it wakes', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('sharing.flows.json', sharing);
  await app.useVirtualTime();

  const reader = await app.start('Shared reader', { value: { note: 'nothing yet' } });
  await expect(app.rowStatus(reader)).toHaveText('waiting');
  await app.openStartForm();
  await expect(
    app.startForm
      .getByLabel('Context', { exact: true })
      .getByRole('option', { name: `Share the context of ${reader} (Shared reader)` }),
  ).toHaveCount(1);
  const writer = await app.start('Shared writer', { shareWith: reader });
  await expect(app.rowStatus(writer)).toHaveText('done');

  // The writer's write is in the one context, and the reader is told who wrote what while it slept.
  await app.inspect(writer);
  expect(await app.context()).toEqual({ note: 'from the writer', count: 1 });
  await app.inspect(reader);
  await expect(app.status).toHaveText('waiting');
  expect(await app.context()).toEqual({ note: 'from the writer', count: 1 });
  await expect(app.changedSinceSlept).toContainText(`Changed since ${reader} last slept`);
  await expect(app.changedSinceSlept.getByRole('listitem')).toHaveText(
    new RegExp(`^note, count — by ${writer}, node write, at `),
  );

  await app.toNextDueTimer();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toEqual({
    note: 'from the writer',
    count: 1,
    copied: 'from the writer',
  });
  await expect(app.journal.filter({ hasText: 'woke at nap by hour' })).toHaveCount(1);
  await expect(
    app.journal.filter({ hasText: 'copy wrote copied = "from the writer"' }),
  ).toHaveCount(1);
  await expect(app.changedSinceSlept.getByRole('listitem')).toHaveText(
    new RegExp(`^note, count — by ${writer}, node write, at `),
  );
});

test('Stop’s shortcut (Ctrl+.) stops a sleeping process; a timer that fell due meanwhile fires once on Resume', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const t = await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  // Step and Run are for a running process; a sleeping one can be stopped or woken.
  await expect(app.control('Step')).toBeDisabled();
  await expect(app.control('Run')).toBeDisabled();
  await expect(app.control('Resume')).toBeDisabled();
  await expect(app.control('Stop')).toHaveAttribute('aria-keyshortcuts', 'Control+.');

  await page.keyboard.press('Control+.');
  await expect(app.status).toHaveText('stopped');
  await expect(app.rowStatus(id)).toHaveText('stopped');
  await expect(app.control('Stop')).toBeDisabled();
  await expect(app.control('Wake now')).toBeDisabled();
  await expect(app.journal.last()).toHaveText(/stopped$/);

  // A stopped process does not wake, however far the clock goes, nor does it take events.
  await app.advanceBy('P3D');
  await expect(app.clockTime).toHaveText(formatInstant(t + 3 * DAY));
  await expect(app.rowWakes(id)).toHaveText('0');
  await expect(app.process.getByRole('form', { name: 'Deliver event' })).toHaveCount(0);
  expect(await app.context()).toMatchObject({ prices: { read: 1 } });

  await app.control('Resume').click();
  await expect(app.rowWakes(id)).toHaveText('1');
  await expect(app.status).toHaveText('waiting');
  expect(await app.context()).toMatchObject({ prices: { read: 2 } });
  // Due a day after it woke, that is a day after the resume.
  await expect(app.waits.getByRole('listitem')).toContainText(
    `due ${formatInstant(t + 4 * DAY)} (in 1 d)`,
  );
  await expect(app.control('Stop')).toBeEnabled();
  await expect(app.control('Step')).toBeDisabled();
  await expect(app.control('Run')).toBeDisabled();

  // Wake now fires its timer at once, without moving the clock.
  await app.control('Wake now').click();
  await expect(app.rowWakes(id)).toHaveText('2');
  expect(await app.context()).toMatchObject({ prices: { read: 3 } });
  await expect(app.clockTime).toHaveText(formatInstant(t + 3 * DAY));
});

/** An hourly loop that would go on for more than eleven years. */
const hourly = {
  format: 'flow/1',
  id: 'hourly',
  name: 'Hourly tick',
  nodes: [
    { id: 'start', kind: 'start', position: { x: 0, y: 0 } },
    // `$block(2)` (the dev server's test hook, `?test=block`) holds each pass 2 ms of real time:
    // ten years of passes then last minutes on any machine, however fast.
    {
      id: 'tick',
      kind: 'work',
      set: { count: 'count + 1', paced: '$block(2)' },
      position: { x: 200, y: 0 },
    },
    {
      id: 'sleep',
      kind: 'continue-after',
      on: [{ id: 'hour', timer: 'PT1H' }],
      position: { x: 400, y: 0 },
    },
    { id: 'end', kind: 'end', position: { x: 600, y: 0 } },
  ],
  edges: [
    { id: 'e1', from: 'start', to: 'tick' },
    { id: 'e2', from: 'tick', to: 'sleep' },
    { id: 'e3', from: 'sleep', to: 'tick', when: 'count < 100000' },
    { id: 'e4', from: 'sleep', to: 'end', when: 'count >= 100000' },
  ],
};

test('advancing ten years of an hourly loop shows its progress, keeps the page responsive and can be cancelled', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto('/?test=block');
  await app.importFlows('hourly.flow.json', hourly);
  const t = await app.useVirtualTime();
  const id = await app.start('Hourly tick', { value: { count: 0 } });
  await expect(app.rowStatus(id)).toHaveText('waiting');

  // Ten years of hourly wakes, each held 2 ms: longer than the checks below take, so the advance
  // is still going when they are done and Cancel stops it.
  await app.startAdvance('P10Y');
  await expect(app.progress).toBeVisible();
  const advancing = app.clock.getByRole('status');
  const wakesSoFar = async () => {
    const text = await advancing.innerText().catch(() => '');
    return Number(/(\d+) wakes, at /.exec(text)?.[1] ?? -1);
  };
  await expect.poll(wakesSoFar).toBeGreaterThan(0);
  const early = await wakesSoFar();
  await expect(app.clock.getByRole('button', { name: 'Advance clock' })).toBeDisabled();

  // The page answers meanwhile: a filter applies, a process opens, and the advance goes on.
  await page.getByLabel('Show').selectOption({ label: 'done (0)' });
  await expect(app.table).toHaveCount(0);
  await page.getByLabel('Show').selectOption({ index: 0 });
  await app.inspect(id);
  await expect(app.loopHead('tick')).toBeVisible();
  await expect.poll(wakesSoFar).toBeGreaterThan(early);

  await advancing.getByRole('button', { name: 'Cancel' }).click();
  await expect(app.progress).toHaveCount(0);
  await expect(app.clock.getByRole('button', { name: 'Advance clock' })).toBeEnabled();

  // The clock stopped between where it was and where it was going, and the process with it:
  // one wake per hour gone by, asleep until the next hour.
  const hoursGone = async () => {
    const reached = await app.now();
    const wakes = Number(await app.rowWakes(id).innerText());
    return (reached - t) / HOUR === wakes ? wakes : -1;
  };
  // The value the poll saw is the one kept: reading again could catch the table between two reads.
  let hours = -1;
  await expect.poll(async () => (hours = await hoursGone())).toBeGreaterThan(early);
  expect(await app.now()).toBeLessThan(t + 10 * 365 * DAY);
  await expect(app.status).toHaveText('waiting');
  await expect(app.liveContext).toContainText(`"count": ${hours + 1}`);
  await expect(app.waits.getByRole('listitem')).toContainText(
    `due ${formatInstant(t + (hours + 1) * HOUR)}`,
  );
  // Nothing moves once it is cancelled.
  await expect(app.clockTime).toHaveText(formatInstant(t + hours * HOUR));
  await expect(app.rowWakes(id)).toHaveText(String(hours));
});

test('a process started paused steps one node at a time, then runs to its next stop', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const id = await app.start('Fan-out with a join', { value: { amount: 700 } }, { paused: true });
  await app.inspect(id);
  // Started paused, it is stopped between two steps: one word for it everywhere.
  await expect(app.status).toHaveText('stopped');
  await expect(app.rowStatus(id)).toHaveText('stopped');
  const visits = app.process.getByLabel('Visits');
  await expect(visits).toHaveText('none yet');

  await app.control('Step').click();
  await expect(visits).toHaveText('start 1');
  await app.control('Step').click();
  await expect(visits).toHaveText('start 1, split 1');
  await expect(app.status).toHaveText('stopped');

  await app.control('Run').click();
  await expect(app.status).toHaveText('done');
  await expect(app.control('Step')).toBeDisabled();
  expect(await app.context()).toMatchObject({ accepted: true });
});

const ONBOARDING = 'Onboarding with nested sub-flows';

test('rule: a sub-flow opens in place with the child’s position, at any depth, and a breadcrumb goes back up by click and keyboard', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const id = await app.start(ONBOARDING, { value: {} });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(ONBOARDING);
  await expect(app.runBadge('checks')).toHaveAccessibleName(/^Process: running/);
  await expect(app.breadcrumb).toHaveCount(0);

  await app.openSubflow('checks', 'checks');
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue('Checks');
  await expect(app.breadcrumb.getByRole('button', { name: ONBOARDING })).toBeVisible();
  await expect(app.breadcrumb.locator('[aria-current="location"]')).toHaveText(
    'Run the checks (checks)',
  );
  await expect(app.runBadge('identity')).toHaveAccessibleName('Process: ran, visits 1');
  await expect(app.runBadge('review')).toHaveAccessibleName(/^Process: running/);

  // One level further down: the child's child waits for a person.
  await app.openSubflow('review', 'review');
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue('Review');
  await expect(app.breadcrumb.getByRole('listitem')).toHaveText([
    `${ONBOARDING} › `,
    'Run the checks (checks) › ',
    'Human review (review)',
  ]);
  await expect(app.runBadge('ask')).toHaveAccessibleName('Process: waiting, visits 0');
  await expect(app.runBadge('record')).toHaveCount(0);

  // Back up one level with the keyboard.
  await app.breadcrumb.getByRole('button', { name: 'Run the checks (checks)' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue('Checks');
  await expect(app.runBadge('review')).toHaveAccessibleName(/^Process: running/);
  // And to the top with a click: the top flow's position again, and no breadcrumb.
  await app.breadcrumb.getByRole('button', { name: ONBOARDING }).click();
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(ONBOARDING);
  await expect(app.breadcrumb).toHaveCount(0);
  await expect(app.runBadge('checks')).toHaveAccessibleName(/^Process: running/);
  await expect(app.runBadge('prepare')).toHaveAccessibleName('Process: ran, visits 1');
});

test('rule: choosing a journal entry shows the snapshot of that moment, read-only and labelled, until "Back to now"', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  const t = await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  await app.advanceBy('P1D');
  await expect(app.loopHead('read')).toHaveText(/^read\s*1\s*1$/);
  await expect(app.runBadge('sleep')).toHaveAccessibleName(/generation 1/);

  // A click on the first time it fell asleep: the wait of generation 0, on the canvas too.
  await app.chooseEntry('fell asleep at sleep');
  await expect(app.snapshotAsOf).toContainText('fell asleep at sleep');
  await expect(app.snapshotAsOf).toContainText(formatInstant(t));
  await expect(app.snapshotPanel.getByRole('heading')).toHaveText(
    `Snapshot as of ${formatInstant(t)}`,
  );
  await expect(app.waits.getByRole('listitem')).toContainText('sleep (generation 0) waits for');
  await expect(app.runBadge('sleep')).toHaveAccessibleName(/generation 0, visits 0/);
  await expect(app.journal.filter({ hasText: 'fell asleep at sleep' }).first()).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // The keyboard moves through the entries: Home is the start, before anything ran.
  await page.keyboard.press('Home');
  await expect(app.journal.first()).toHaveAttribute('aria-selected', 'true');
  await expect(app.journal.first()).toBeFocused();
  await expect(app.snapshotAsOf).toContainText('Entry 1: started on nightly-refresh');
  await expect(app.snapshotPanel.getByLabel('Status then')).toHaveText('running');
  await page.keyboard.press('ArrowDown');
  await expect(app.journal.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(app.journal.nth(1)).toBeFocused();
  // The label names the entry chosen. "ran start" was committed with the rest of that run, up to
  // the wait: the snapshot shown is the one that commit kept, on its last entry, and the panel
  // says which (asOf.ts).
  await expect(app.snapshotAsOf).toContainText('Entry 2: ran start');
  await expect(app.snapshotPanel.getByRole('status')).toContainText(
    /the position kept at entry \d+/,
  );

  // The chart's marks choose entries too.
  const secondRead = app.chart.getByRole('option', { name: /^read ran at / }).last();
  await secondRead.click();
  await expect(secondRead).toHaveAttribute('aria-selected', 'true');
  await expect(app.journal.filter({ hasText: /ran read generation 1$/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(app.snapshotAsOf).toContainText(formatInstant(t + 86_400_000));

  await app.snapshotPanel.getByRole('button', { name: 'Back to now' }).click();
  await expect(app.snapshotAsOf).toHaveCount(0);
  await expect(app.status).toHaveText('waiting');
  await expect(app.waits.getByRole('listitem')).toContainText('sleep (generation 1) waits for');
  await expect(app.runBadge('sleep')).toHaveAccessibleName(/generation 1/);
});

test('rule: a changed flow is drawn with what was added, changed and removed, in words as well as colours', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(NIGHTLY);
  await app.setExpression('read', 1, 'prices.read + 10');
  await app.deleteNode('sleep');
  await app.advanceBy('P1D');
  await expect(app.status).toHaveText('flow-changed');

  await expect(app.node('read')).toHaveAccessibleName(/, changed since the process slept$/);
  await expect(app.node('read').getByText(/^changed/)).toBeVisible();
  // The removed node is drawn where it was, with its edges, and says so.
  const ghost = app.removedNode('sleep');
  await expect(ghost).toBeVisible();
  await expect(ghost).toContainText('removed');
  await expect(
    app.canvas.getByRole('group', {
      name: 'Removed since the process slept: edge e7 from both to sleep',
    }),
  ).toHaveCount(1);
  await expect(app.canvasChanges).toContainText('changed node read');
  await expect(app.canvasChanges).toContainText('removed node sleep, edge e7, edge e8, edge e9');
  // A ghost is not part of the flow: it cannot be selected for editing.
  await ghost.click({ force: true });
  await expect(app.properties.getByRole('heading', { level: 2, name: /sleep/ })).toHaveCount(0);

  await app.choice('Restart').click();
  await expect(app.flowChanged).toHaveCount(0);
  await expect(app.removedNode('sleep')).toHaveCount(0);
  await expect(app.canvasChanges).toHaveCount(0);
});

test('rule: a trigger with `into` shows its event name or prompt readably, and an edge from a trigger is named for its kind from the start', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await page.getByRole('button', { name: NIGHTLY, exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(NIGHTLY);
  const eventName = app.node('sleep').getByText('prices.changed', { exact: true });
  await expect(eventName).toBeVisible();
  // Not cut off: its whole width is shown.
  expect(
    await eventName.evaluate(
      (el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().width > 40,
    ),
  ).toBe(true);

  await page.getByRole('button', { name: ORDER, exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Flow name' })).toHaveValue(ORDER);
  const prompt = app.node('await').getByText('Approve this order?', { exact: true });
  expect(
    await prompt.evaluate(
      (el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1,
    ),
  ).toBe(true);
  await expect(
    app.node('await').getByRole('listitem').filter({ hasText: 'decide' }),
  ).toHaveAttribute('title', /Approve this order\?, into approval/);
  await expect(
    app.canvas.getByRole('group', {
      name: 'Edge from await to ship, on human decide, when approval.approved',
    }),
  ).toHaveCount(1);
  await expect(
    app.canvas.getByRole('group', { name: 'Edge from await to expire, on timer timeout' }),
  ).toHaveCount(1);
});
