import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator } from '@playwright/test';
import { setCode } from './fixtures/codeField.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';
import { focusable, tabTo } from './fixtures/keyboard.ts';

type Box = { x: number; y: number; width: number; height: number };

const ORDER = 'Order with approval and a timeout';
const FIRST_CONTEXT = { value: { order: { lines: [{ price: 2, qty: 3 }] } } };

/** The triggers a waiting node offers in place. */
const actionsOn = (app: InspectorPage, node: string) =>
  app.node(node).getByRole('group', { name: `Act on ${node} now` });

test('rule: a waiting continue-after delivers its event from the node, with a payload, and the process moves on', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  // Nightly refresh sleeps at "sleep" for a day, or until prices.changed (into lastChange).
  await app.startNightlyAsleep();
  await expect(app.journal.last()).toContainText('fell asleep at sleep');
  // Only the node the process waits at offers its triggers.
  await expect(page.getByRole('group', { name: /^Act on .* now$/ })).toHaveCount(1);
  const actions = actionsOn(app, 'sleep');

  // Reached by Tab from the node: past its three connect handles and the timer's Fire now.
  await focusable(app.node('sleep')).focus();
  const deliver = actions.getByRole('button', { name: /^Deliver event prices\.changed/ });
  expect(await tabTo(page, deliver, { limit: 6 })).toBe(5);
  await page.keyboard.press('Enter');
  const form = page
    .getByRole('dialog', { name: /^Deliver event prices\.changed/ })
    .getByRole('form', { name: 'Deliver prices.changed' });
  await expect(form).toBeVisible();
  // A payload that is not JSON is refused in the form, and nothing is delivered.
  await setCode(form.getByLabel('Payload (JSON)'), '{"by": ');
  await form.getByRole('button', { name: 'Deliver event' }).click();
  await expect(form.getByText(/The payload is not valid JSON/)).toBeVisible();
  await expect(app.journal.last()).toContainText('fell asleep at sleep');

  const axe = await new AxeBuilder({ page }).include('.wf-popover').analyze();
  expect(axe.violations).toEqual([]);

  await setCode(form.getByLabel('Payload (JSON)'), '{"by": "canvas"}');
  await form.getByRole('button', { name: 'Deliver event' }).click();
  await expect(form).toBeHidden();
  await expect(app.journal.filter({ hasText: 'woke at sleep by' })).toHaveCount(1);
  expect(await app.context()).toMatchObject({ lastChange: { by: 'canvas' } });
});

test('rule: a waiting human trigger is answered from its node; a timer fires from its node on the virtual clock only', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.useRealTime();
  const approved = await app.start(ORDER, FIRST_CONTEXT);
  await app.inspect(approved);
  await expect(app.status).toHaveText('waiting');
  const actions = actionsOn(app, 'await');

  // On the real clock the timer is not fired early: a line says why, and no button.
  await expect(actions.getByRole('button', { name: /^Fire now/ })).toHaveCount(0);
  await expect(actions).toContainText('Timer timeout: fire it now on the virtual clock');

  await actions.getByRole('button', { name: /^Answer decide/ }).click();
  const form = page
    .getByRole('dialog', { name: /^Answer decide/ })
    .getByRole('form', { name: /^Approve this order\?/ });
  await form.getByLabel('Approved').check();
  await form.getByLabel('Note to the customer').fill('thanks');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({ order: { status: 'shipped' } });
  // Done: the node offers nothing more.
  await expect(actions).toHaveCount(0);

  const expiring = await app.start(ORDER, FIRST_CONTEXT);
  await app.inspect(expiring);
  await expect(app.status).toHaveText('waiting');
  const before = await app.useVirtualTime();
  const fire = actions.getByRole('button', { name: 'Fire now: timer timeout' });
  await fire.click();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({ order: { status: 'expired' } });
  // The timer fired on the virtual clock: it moved to when the timer fell due, 48 h after the
  // process fell asleep (a moment before the clock was switched).
  expect((await app.now()) - before).toBeGreaterThan(47 * 3_600_000);
});

test('rule: the node a process waits at stays whole in view at 1280×720, its actions inside it and clear of the minimap', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = new InspectorPage(page);
  await app.goto();
  await app.useVirtualTime();
  await app.startNightlyAsleep();
  const node = app.node('sleep');
  const actions = actionsOn(app, 'sleep');
  await expect(actions).toBeVisible();

  const boxOf = async (l: Locator): Promise<Box> => (await l.boundingBox())!;
  const inside = (inner: Box, outer: Box) =>
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5;
  const overlap = (a: Box, b: Box) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  // Where the view has settled (it pans once the node has grown by its actions).
  await expect
    .poll(async () => {
      const [n, pane, map] = await Promise.all([
        boxOf(node),
        boxOf(page.locator('.react-flow__pane')),
        boxOf(page.locator('.wf-minimap')),
      ]);
      return inside(n, pane) && !overlap(n, map);
    })
    .toBe(true);
  // Every action button lies inside the node's box, whatever its event's name.
  const nodeBox = await boxOf(node);
  for (const button of await actions.getByRole('button').all())
    expect(inside(await boxOf(button), nodeBox)).toBe(true);
});
