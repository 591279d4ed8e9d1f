import { expect, test, type Locator } from '@playwright/test';
import { setCode } from './fixtures/codeField.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

const NIGHTLY = 'Nightly refresh';
// The loop goes on while prices.read < 7: from -30, it outlasts thirty nightly passes.
const prices = { prices: { read: -30, history: [1, 2] } };
/** The inspector reads this many of the newest entries at first (inspectorState.ts). */
const PAGE = 200;

/** How many entries the timeline says it holds (every drawn option says so, aria-setsize). */
const heldOf = async (timeline: Locator) =>
  Number(await timeline.getByRole('option').first().getAttribute('aria-setsize'));

/** Whether an entry is within the timeline's scrolled view (the panel around it may scroll too). */
const inTimelineView = (option: Locator) =>
  option.evaluate((li) => {
    const view = li.closest('[role="listbox"]')!.parentElement!.getBoundingClientRect();
    const row = li.getBoundingClientRect();
    return row.top >= view.top - 1 && row.bottom <= view.bottom + 1;
  });

/** The positions (1 = the oldest read) of the options drawn in the DOM now. */
const drawnOf = (timeline: Locator) =>
  timeline
    .getByRole('option')
    .evaluateAll((options) => options.map((o) => Number(o.getAttribute('aria-posinset'))));

test('rule: the journal timeline draws only the entries in view, opens on the newest, and reads older pages as it is scrolled up, keeping the view where it was', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  // Thirty nightly passes: several hundred entries, more than one page.
  await app.advanceBy('P30D');
  await expect(app.loopHead('read')).toHaveText(/^read\s*30\s*30$/);

  const timeline = app.timeline;
  await expect.poll(() => heldOf(timeline)).toBe(PAGE);
  // Only what is in view (and a few rows around it) is in the DOM, not the page read.
  const drawn = await drawnOf(timeline);
  expect(drawn.length).toBeGreaterThan(0);
  expect(drawn.length).toBeLessThan(60);
  // It opens on the newest entry, at the bottom, in view.
  const newest = timeline.getByRole('option', { name: /fell asleep at sleep.*generation 30$/ });
  await expect.poll(() => inTimelineView(newest)).toBe(true);
  expect(Math.max(...drawn)).toBe(PAGE);

  // Each entry says when it happened (virtual time), and how long after the one before.
  await expect(newest).toHaveAccessibleName(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d /);
  // The chart's last run of read chooses that entry; the timeline brings it into view, just
  // after the wake a day after the pass before.
  await app.chart
    .getByRole('option', { name: /^read ran at / })
    .last()
    .click();
  const read = timeline.getByRole('option', { selected: true });
  await expect(read).toHaveAccessibleName(/ran read generation 30$/);
  await expect.poll(() => inTimelineView(read)).toBe(true);
  await expect(
    timeline.getByRole('option', { name: /\+1 d woke at sleep by daily generation 29$/ }),
  ).toHaveCount(1);
  await app.snapshotPanel.getByRole('button', { name: 'Back to now' }).click();

  // Scrolled to the top of what was read: the next older page is read from the runtime.
  await timeline.evaluate((list) => list.parentElement!.scrollTo({ top: 0 }));
  await expect.poll(() => heldOf(timeline)).toBe(2 * PAGE);
  // The page came in above: the view shows the entries it showed, not the oldest ones.
  expect(Math.min(...(await drawnOf(timeline)))).toBeGreaterThan(PAGE - 20);
  expect((await drawnOf(timeline)).length).toBeLessThan(60);
});

test('rule: the timeline is a listbox the keyboard moves through, each entry named by its time and what happened, and Home reaches older pages', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  await app.advanceBy('P30D');
  await expect(app.loopHead('read')).toHaveText(/^read\s*30\s*30$/);
  const timeline = app.timeline;
  await expect.poll(() => heldOf(timeline)).toBe(PAGE);

  // One tab stop: the newest entry.
  const newest = timeline.getByRole('option').last();
  await newest.focus();
  await expect(newest).toHaveAttribute('tabindex', '0');
  await page.keyboard.press('ArrowUp');
  const chosen = timeline.getByRole('option', { selected: true });
  await expect(chosen).toBeFocused();
  await expect(chosen).toHaveAttribute('aria-posinset', String(PAGE - 1));
  await expect(app.snapshotAsOf).toBeVisible();

  // Home goes to the oldest entry read, and asks for the page before it.
  await page.keyboard.press('Home');
  await expect.poll(() => heldOf(timeline)).toBeGreaterThan(PAGE);
  // The entry chosen stays the same entry as the older page comes in above it.
  await expect(timeline.getByRole('option', { selected: true })).toBeFocused();
  await expect(timeline.getByRole('option', { selected: true })).toHaveAttribute(
    'aria-posinset',
    String((await heldOf(timeline)) - PAGE + 1),
  );
  await app.snapshotPanel.getByRole('button', { name: 'Back to now' }).click();
  await expect(app.snapshotAsOf).toHaveCount(0);
});

test('rule: a context edited in the inspector is an entry of the journal, saying what was written', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  const id = await app.start(NIGHTLY, { value: prices });
  await app.inspect(id);
  await app.process.getByRole('button', { name: 'Edit context' }).click();
  await setCode(app.process.getByLabel('Context (JSON)'), '{"prices":{"read":41,"history":[]}}');
  await app.process.getByRole('button', { name: 'Save context' }).click();
  await expect(app.context()).resolves.toEqual({ prices: { read: 41, history: [] } });
  await expect(app.timeline.getByRole('option').last()).toHaveAccessibleName(
    /context edited from outside: \(the whole document\) = \{"prices":\{"read":41,"history":\[\]\}\}$/,
  );
});
