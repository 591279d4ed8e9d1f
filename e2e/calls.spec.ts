import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../runtime/calls/fixtures/testServer.ts';
import { DesignerPage } from './fixtures/designerPage.ts';

// A server that lets pages of any origin read its answers (CORS), and one that does not: both
// of the tests' own, on 127.0.0.1 and a free port.
let open: TestServer;
let closed: TestServer;
test.beforeAll(async () => {
  open = await startTestServer({ cors: true });
  closed = await startTestServer();
});
test.afterAll(async () => {
  await open.close();
  await closed.close();
});

const SECRET = 'e2e-secret-value-4711';
const FLOW = 'Order with a card payment';
const CALL = 'Call "charged"';

/** The payment example's call, pointed at `origin`, selected in the properties panel. */
async function callTo(page: Page, origin: string): Promise<DesignerPage> {
  const designer = new DesignerPage(page);
  await designer.goto();
  await designer.openFlow(FLOW);
  await designer.selectNode('pay');
  await designer.fill(`'${origin}/echo'`, 'URL (JSONata)', CALL);
  return designer;
}

const sendButton = (designer: DesignerPage) =>
  designer.group(CALL).getByRole('button', { name: 'Send a test request' });
const answer = (designer: DesignerPage) => designer.group(CALL).getByRole('status');

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Call settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Call settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('rule: a call to an origin not allowed is offered to allow; Allow, then a test request shows the answer, its secret sent and never shown', async ({
  page,
}) => {
  const designer = await callTo(page, open.origin);
  const group = designer.group(CALL);
  await expect(group.getByText(`${open.origin} is not allowed`)).toBeVisible();
  await group.getByRole('button', { name: `Allow ${open.origin}` }).click();
  await expect(group.getByText(`${open.origin} is not allowed`)).toHaveCount(0);

  // The call's Authorization header reads $secret('shop'), which is not set yet.
  await sendButton(designer).click();
  await expect(answer(designer)).toContainText('refused: secret "shop" is not set');
  expect(open.requests).toHaveLength(0);

  const dialog = await openSettings(page);
  await expect(dialog.getByRole('list', { name: 'Allowed origins' })).toContainText(open.origin);
  await dialog.getByLabel('Name', { exact: true }).fill('shop');
  await dialog.getByLabel('Value', { exact: true }).fill(SECRET);
  await dialog.getByRole('button', { name: 'Save secret' }).click();
  const secrets = dialog.getByRole('list', { name: 'Secrets' });
  await expect(secrets.getByRole('listitem')).toHaveText(/shop\s*••••/);
  await expect(dialog.getByLabel('Value', { exact: true })).toHaveValue('');
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  await sendButton(designer).click();
  await expect(answer(designer)).toContainText('Status 200');
  // The server saw the secret, and exactly one attempt.
  expect(open.requests).toHaveLength(1);
  expect(open.requests[0]?.method).toBe('POST');
  expect(open.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  expect(open.requests[0]?.headers['idempotency-key']).toMatch(/^wakeflow-test-/);
  // The echo's body is shown, pretty, with the secret masked.
  const body = answer(designer).getByLabel('Answer body');
  await expect(body).toContainText('"method": "POST"');
  await expect(body).toContainText('Bearer ••••');
  // Nowhere on the page, as text or as an attribute (the password field holds no value now).
  expect(await page.content()).not.toContain(SECRET);
  const values = await page
    .locator('input, textarea')
    .evaluateAll((fields) => fields.map((f) => (f as HTMLInputElement).value));
  expect(values).not.toContain(SECRET);
});

test("rule: a server that does not allow the page's origin (CORS) is refused by the browser, and the answer says so and what to do", async ({
  page,
}) => {
  const designer = await callTo(page, closed.origin);
  const dialog = await openSettings(page);
  await dialog.getByLabel('Origin', { exact: true }).fill(`${closed.origin}/`);
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(dialog.getByRole('list', { name: 'Allowed origins' })).toContainText(closed.origin);
  // A refusal stores nothing and says why.
  await dialog.getByLabel('Origin', { exact: true }).fill('ftp://files.example');
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/is not http:\/\/ or https:\/\//);
  await expect(
    dialog.getByRole('list', { name: 'Allowed origins' }).getByRole('listitem'),
  ).toHaveCount(1);
  await dialog.getByLabel('Name', { exact: true }).fill('shop');
  await dialog.getByLabel('Value', { exact: true }).fill(SECRET);
  await dialog.getByRole('button', { name: 'Save secret' }).click();
  await expect(dialog.getByRole('list', { name: 'Secrets' })).toContainText('shop');
  await page.keyboard.press('Escape');

  await expect(designer.group(CALL).getByText(/is not allowed/)).toHaveCount(0);
  await sendButton(designer).click();
  const shown = answer(designer);
  await expect(shown).toContainText('No answer');
  await expect(shown).toContainText('(CORS)');
  await expect(shown).toContainText('pin a response');
  await expect(shown).toContainText('run the flow on Restate');
  expect(await page.content()).not.toContain(SECRET);
});
