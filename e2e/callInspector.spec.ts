import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../runtime/calls/fixtures/testServer.ts';
import { callingFlow, setUpCalls as allowAndKeep } from './fixtures/calls.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// The run view of a process waiting on a call (docs/format.md#calls): the request as recorded,
// secrets by name only, the Idempotency-Key, each attempt, the next due, and "Send next attempt
// now". The call goes to a server of the test's own that lets the page's origin read it (CORS).
let server: TestServer;
test.beforeAll(async () => (server = await startTestServer({ cors: true })));
test.afterAll(() => server.close());

const SECRET = 'e2e-inspected-secret-9313';

const flow = (path = '/sequence') =>
  callingFlow(server.origin, path, { name: 'Charges the card at', secret: 'shop' });
const setUpCalls = (page: Page) =>
  allowAndKeep(page, server.origin, { name: 'shop', value: SECRET });

const sent = () => server.requests.filter((r) => r.path === '/sequence');

test('rule: a process answered 503 shows its call (secret by name), key, attempt 1 → 503 and the next due; "Send next attempt now" sends attempt 2 and the process completes; the journal lists both attempts', async ({
  page,
}) => {
  server.answerSequence = [503, 200];
  const before = sent().length;
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('charge.flow.json', flow());
  await setUpCalls(page);
  await app.useVirtualTime();
  const id = await app.start('Charges the card at /sequence');
  await app.inspect(id);

  const call = app.process.getByRole('region', { name: /^Call at pay/ });
  await expect(call.getByRole('list', { name: 'Attempts' })).toHaveText(/Attempt 1 → 503/);
  await expect(app.status).toHaveText('waiting');
  await expect(app.waits).toHaveText("pay waits for a call's answer (charged)");
  expect(sent().length - before).toBe(1);
  await expect(call).toContainText(`POST ${server.origin}/sequence`);
  await expect(call.getByRole('list', { name: 'Headers' })).toHaveText(
    "Authorization: Bearer $secret('shop')",
  );
  await expect(call).toContainText('"amount": 12');
  // The key shown is the one the server was sent.
  const key = sent().at(-1)!.headers['idempotency-key'];
  expect(key).toBeTruthy();
  await expect(call.getByLabel('Idempotency-Key')).toHaveText(key!);
  await expect(call.getByTestId('call-next-due')).toHaveText(/^attempt 2, .*\(in 1 min\)$/);
  const axe = await new AxeBuilder({ page }).include('.wait-forms').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await call.getByRole('button', { name: 'Send next attempt now' }).click();
  await expect(app.status).toHaveText('done');
  expect(sent().length - before).toBe(2);
  expect(sent().at(-1)!.headers['idempotency-key']).toBe(key);
  // The server got the secret; the page never shows it.
  expect(sent().at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
  await expect(app.journal.filter({ hasText: /pay: attempt \d/ })).toHaveText([
    /pay: attempt 1 → 503 \(POST /,
    /pay: attempt 2 → 200 \(POST /,
  ]);
  expect(await app.context()).toMatchObject({ payment: { ok: true, status: 200, attempts: 2 } });
  expect(await page.content()).not.toContain(SECRET);
});

test('rule: while an attempt is in flight, "Send next attempt now" is disabled and says why', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('slow.flow.json', flow('/slow'));
  await setUpCalls(page);
  const id = await app.start('Charges the card at /slow');
  await app.inspect(id);
  // The server holds the first attempt: no answer comes until the test releases it.
  await server.slowHeld(1);
  const call = app.process.getByRole('region', { name: /^Call at pay/ });
  const button = call.getByRole('button', { name: 'Send next attempt now' });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription('An attempt is in flight: wait for its answer.');
  await expect(call).toContainText('Next attemptin flight');
  server.releaseSlow();
  await expect(app.status).toHaveText('done');
  await expect(app.journal.filter({ hasText: 'pay: attempt 1 → 200' })).toHaveCount(1);
});

for (const colorScheme of ['light', 'dark'] as const)
  test(`rule: the call a process waits on reads clearly in the ${colorScheme} theme: no contrast or other axe violation, no text under 12 px`, async ({
    browser,
  }) => {
    server.answerSequence = [503, 200];
    const context = await browser.newContext({
      colorScheme,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    const app = new InspectorPage(page);
    await app.goto();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
    await app.importFlows('charge.flow.json', flow());
    await setUpCalls(page);
    await app.useVirtualTime();
    await app.inspect(await app.start('Charges the card at /sequence'));
    const call = app.process.getByRole('region', { name: /^Call at pay/ });
    await expect(call.getByRole('list', { name: 'Attempts' })).toHaveText(/Attempt 1 → 503/);
    // Nothing runs past the column's edge, where the panel would clip it.
    const button = call.getByRole('button', { name: 'Send next attempt now' });
    await button.scrollIntoViewIfNeeded();
    const [box, region] = [await button.boundingBox(), await call.boundingBox()];
    expect(box!.x + box!.width).toBeLessThanOrEqual(region!.x + region!.width + 0.5);
    const axe = await new AxeBuilder({ page }).include('.call-wait').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    const small = await call.evaluate((root) =>
      [...root.querySelectorAll('*')]
        .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()))
        .map((el) => `${getComputedStyle(el).fontSize} ${el.textContent!.trim().slice(0, 30)}`)
        .filter((s) => parseFloat(s) < 12),
    );
    expect(small).toEqual([]);
    await context.close();
  });
