import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { InspectorPage } from '../../../../e2e/fixtures/inspectorPage.ts';
import { DesignerPage } from '../../../../e2e/fixtures/designerPage.ts';
import { removeDataDir, startRestateNode } from '../../../../scripts/restateServer.ts';
import { registerEndpoint, serveEndpoint } from '../../endpoint.ts';
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

  // The journal's export is the server's whole journal, one entry a line, numbered.
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export journal (JSON Lines)' }).click();
  const lines = (await readFile((await (await downloaded).path())!, 'utf8')).trim().split('\n');
  const journal = await new IngressClient(INGRESS).journal(id);
  expect(journal.ok && lines.map((l) => JSON.parse(l) as unknown)).toEqual(
    journal.ok && journal.value,
  );

  // Time travel and a fork on the server: the order as it was when it fell asleep, answered
  // otherwise from there.
  await app.chooseEntry(/fell asleep at await/);
  const past = app.process.getByRole('region', { name: /^Context as of / });
  await expect(past).toContainText('placed');
  await past.getByRole('radio', { name: 'a copy of the context as of then' }).check();
  await past.getByRole('button', { name: 'Fork from here' }).click();
  await expect(app.process).not.toHaveAccessibleName(`Process ${id}`);
  await expect(app.status).toHaveText('waiting');
  const refusal = app.humanForm('Approve this order?');
  await refusal.getByRole('textbox', { name: 'Note to the customer' }).fill('Out of stock');
  await refusal.getByRole('button', { name: 'Send answer' }).click();
  await expect(app.status).toHaveText('done');
  expect(await app.context()).toMatchObject({ order: { status: 'rejected' } });
  // The original is as it was.
  await app.inspect(id);
  expect(await app.context()).toMatchObject({ order: { status: 'shipped' } });

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

test('a server that does not answer, or is not a Restate ingress, is named in the dialog, and the workbench stays on this browser', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto(`${APP}/`);
  // Nothing listens on port 1; the page's server says it cannot reach it.
  const dialog = await connect(page, 'http://127.0.0.1:1');
  await expect(dialog.getByRole('alert')).toContainText('cannot reach');
  // A server that answers, but is not a Restate ingress: this very app.
  await dialog.getByRole('textbox', { name: 'Ingress URL' }).fill(APP);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByRole('alert')).toContainText('not as a Restate ingress answers');
  // Not a URL at all: said before anything is sent.
  await dialog.getByRole('textbox', { name: 'Ingress URL' }).fill('restate:8080');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Only http and https');
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Connect to a server' })).toBeVisible();
});

test('a server killed while connected shows that the workbench is reconnecting, and it goes on once the server is back', async ({
  page,
}) => {
  // A server of this test's own, killed and started again on its data directory and ports:
  // the other tests share theirs.
  const node = await startRestateNode();
  const endpoint = await serveEndpoint(0);
  let restarted: Awaited<ReturnType<typeof startRestateNode>> | undefined;
  try {
    await registerEndpoint(node.adminUrl, endpoint.url);
    const client = new IngressClient(node.ingressUrl);
    const deployed = await client.deploy(readFileSync('examples/order-approval.flow.json', 'utf8'));
    expect(deployed.ok).toBe(true);
    const app = new InspectorPage(page);
    await app.goto(`${APP}/`);
    await connect(page, node.ingressUrl);
    const host = new URL(node.ingressUrl).host;
    await expect(page.getByRole('group', { name: `Server ${host}` })).toBeVisible();
    const first = `p-kill-${Date.now().toString(16)}`;
    expect(
      (await client.start(first, { flow: 'order-approval', context: { order: { lines: [] } } })).ok,
    ).toBe(true);
    await expect(app.rowStatus(first)).toHaveText('waiting');

    await node.kill();
    const reconnecting = page.getByRole('alert').filter({ hasText: `Reconnecting to ${host}` });
    await expect(reconnecting).toBeVisible();
    // What was read stays on the page meanwhile.
    await expect(app.rowStatus(first)).toHaveText('waiting');

    restarted = await startRestateNode({ baseDir: node.baseDir, ports: node.ports });
    await expect(reconnecting).toHaveCount(0);
    // And it follows the server again: a process started now appears.
    const second = `${first}-after`;
    expect(
      (await client.start(second, { flow: 'order-approval', context: { order: { lines: [] } } }))
        .ok,
    ).toBe(true);
    await expect(app.rowStatus(second)).toHaveText('waiting');
  } finally {
    await restarted?.stop();
    await node.stop();
    await endpoint.close();
    removeDataDir(node.baseDir);
  }
});

test('Deploy of a flow the server refuses shows the messages of flow deploy, and stores nothing there', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto(`${APP}/`);
  await connect(page, INGRESS);
  await expect(page.getByRole('group', { name: `Server ${serverName}` })).toBeVisible();
  // A flow whose edges name nodes it lacks: the designer keeps it as a draft of this page.
  const d = new DesignerPage(page);
  await d.importPath('e2e/fixtures/bad/dangling-edges.flow.json');
  await expect(d.flowId).toHaveText('id: dangling');
  await expect(page.getByRole('alert').filter({ hasText: 'Not deployed' })).toContainText(
    'dangling',
  );

  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
  // The server's refusal, located as flow validate locates it.
  await expect(page.getByText(/^Not deployed: .*nowhere/)).toBeVisible();
  const flows = await new IngressClient(INGRESS).flows();
  expect(flows.ok && flows.value.map((f: { id: string }) => f.id)).not.toContain('dangling');
});
