import { expect, test, type Page } from '@playwright/test';
import { InspectorPage } from '../../../../e2e/fixtures/inspectorPage.ts';
import { IngressClient } from '../../ingressClient.ts';

// The workbench attached to a server (docs/restate.md, "The workbench attached to a server"):
// the built app, a real Restate server with wakeflow's endpoint, order-approval deployed.
const INGRESS = process.env.WAKEFLOW_TEST_INGRESS!;
const APP = process.env.WAKEFLOW_TEST_APP!;
const ORDER = 'Order with approval and a timeout';
const serverName = new URL(INGRESS).host;

// A failure says what the page showed: the top bar's state (reconnecting, not deployed) and
// the process table, which a screenshot of CI's run would not carry.
test.afterEach(async ({ page }, info) => {
  if (info.status === info.expectedStatus) return;
  const said = [
    ...(await page.getByRole('status').allInnerTexts()),
    ...(await page.getByRole('alert').allInnerTexts()),
  ];
  const table = await page
    .getByRole('table', { name: 'Processes' })
    .innerText({ timeout: 1000 })
    .catch(() => '(no process table)');
  console.log(`The page said: ${JSON.stringify(said)}\nIts process table:\n${table}`);
});

async function connect(page: Page, url: string) {
  await page.getByRole('button', { name: 'Connect to a server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect to a server' });
  await dialog.getByRole('textbox', { name: 'Ingress URL' }).fill(url);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  return dialog;
}

test('connected to a server, a designer starts an order there, answers its form and sees it done', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto(`${APP}/`);
  await connect(page, INGRESS);
  // Connecting reloads the page on the server's runtime, named in the top bar.
  const server = page.getByRole('group', { name: `Server ${serverName}` });
  await expect(server).toBeVisible();
  await expect(app.startButton).toBeEnabled();

  const id = await app.start(ORDER, { value: { order: { lines: [{ price: 2, qty: 3 }] } } });
  await app.inspect(id);
  await expect(app.status).toHaveText('waiting');
  expect(await app.context()).toMatchObject({ order: { status: 'placed', total: 6 } });
  // The server keeps its own time: no virtual clock, and the reason says so.
  await expect(
    page.getByRole('note').filter({ hasText: 'A server keeps its own time' }),
  ).toBeVisible();

  const form = app.humanForm('Approve this order?');
  await form.getByRole('checkbox', { name: 'Approved' }).check();
  await form.getByRole('textbox', { name: 'Note to the customer' }).fill('Thank you');
  await form.getByRole('button', { name: 'Send answer' }).click();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({
    order: { status: 'shipped', total: 6 },
    approval: { approved: true, note: 'Thank you' },
  });

  // The server holds it: its own status says the same.
  const status = await new IngressClient(INGRESS).status(id);
  expect(status.ok && status.value.status).toBe('done');

  // The choice survives a reload; "This browser" goes back.
  await page.reload();
  await expect(server).toBeVisible();
  await server.getByRole('button', { name: 'This browser' }).click();
  await expect(page.getByRole('button', { name: 'Connect to a server' })).toBeVisible();
  await expect(app.row(id)).toHaveCount(0);
});

test('a process started from the command line appears without a reload', async ({ page }) => {
  const app = new InspectorPage(page);
  await app.goto(`${APP}/`);
  await connect(page, INGRESS);
  await expect(page.getByRole('group', { name: `Server ${serverName}` })).toBeVisible();
  const id = `p-cli-${Date.now().toString(16)}`;
  const started = await new IngressClient(INGRESS).start(id, {
    flow: 'order-approval',
    context: { order: { lines: [] } },
  });
  expect(started.ok).toBe(true);
  await expect(app.rowStatus(id)).toHaveText('waiting');
  await page
    .getByRole('group', { name: `Server ${serverName}` })
    .getByRole('button', { name: 'This browser' })
    .click();
});

test('a server that does not answer is named in the dialog, and the workbench stays on this browser', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto(`${APP}/`);
  // Nothing listens on port 1; the page's server says it cannot reach it.
  const dialog = await connect(page, 'http://127.0.0.1:1');
  await expect(dialog.getByRole('alert')).toContainText('cannot reach');
  // Not a URL at all: said before anything is sent.
  await dialog.getByRole('textbox', { name: 'Ingress URL' }).fill('restate:8080');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Only http and https');
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Connect to a server' })).toBeVisible();
});
