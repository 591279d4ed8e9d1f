import { expect, test } from '@playwright/test';
import { InspectorPage } from './fixtures/inspectorPage.ts';

const ORDER = 'Order with approval and a timeout';
const order = { order: { lines: [{ price: 2, qty: 3 }] } };

/** Starts an order, answers its form "approved", and inspects it, done and shipped. */
async function shippedOrder(app: InspectorPage): Promise<string> {
  await app.goto();
  const id = await app.start(ORDER, { value: order });
  await app.inspect(id);
  const form = app.humanForm('Approve this order?');
  await form.getByRole('checkbox', { name: 'Approved' }).check();
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({ order: { status: 'shipped' } });
  return id;
}

test('rule: a journal entry shows the context as of then, rebuilt from the writes and marked past, with who wrote what; Fork from here on a copy of it tries another answer', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  const id = await shippedOrder(app);

  await app.chooseEntry(/fell asleep at await/);
  const past = app.process.getByRole('region', { name: /^Context as of / });
  await expect(past).toContainText('past');
  const then = JSON.parse(await past.getByLabel('Past context').innerText()) as unknown;
  // Placed, not yet shipped, and no answer yet: the live context has moved on since.
  expect(then).toEqual({ order: { lines: [{ price: 2, qty: 3 }], status: 'placed', total: 6 } });
  await expect(past.getByRole('list', { name: 'Writes up to then' })).toHaveText(
    new RegExp(`order\\.status: \\(none\\) → "placed" — by ${id}, node place`),
  );
  expect(await app.context()).toMatchObject({ order: { status: 'shipped' } });

  await past.getByRole('radio', { name: 'a copy of the context as of then' }).check();
  await past.getByRole('button', { name: 'Fork from here' }).click();
  // The fork is a new process, waiting where the original waited, on the context as of then.
  await expect(app.process).not.toHaveAccessibleName(`Process ${id}`);
  const fork = (await app.process.getAttribute('aria-label'))!.replace('Process ', '');
  await expect(app.status).toHaveText('waiting');
  expect(await app.context()).toEqual(then);
  await expect(app.journal.first()).toHaveText(
    new RegExp(`forked from ${id} \\(its entry \\d+, on a copy of its context as of then\\)`),
  );

  // Another answer, from the same point.
  const form = app.humanForm('Approve this order?');
  await form.getByRole('textbox', { name: 'Note to the customer' }).fill('Out of stock');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({
    order: { status: 'rejected', reason: 'Out of stock' },
  });
  // The original is as it was.
  await app.inspect(id);
  expect(await app.context()).toMatchObject({ order: { status: 'shipped' } });
  await expect(app.rowStatus(fork)).toHaveText('done');
});

test('rule: Fork from here on the live context shares the original’s context', async ({ page }) => {
  const app = new InspectorPage(page);
  const id = await shippedOrder(app);
  await app.chooseEntry(/fell asleep at await/);
  const past = app.process.getByRole('region', { name: /^Context as of / });
  await past.getByRole('radio', { name: /^the context now/ }).check();
  await past.getByRole('button', { name: 'Fork from here' }).click();
  await expect(app.process).not.toHaveAccessibleName(`Process ${id}`);
  await expect(app.status).toHaveText('waiting');
  // What is true now, shipped, not the context as of then.
  expect(await app.context()).toMatchObject({ order: { status: 'shipped' } });
  await expect(app.journal.first()).toHaveText(/on its live context\)/);
});
