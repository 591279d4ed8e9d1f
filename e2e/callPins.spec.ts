import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../runtime/calls/fixtures/testServer.ts';
import { callingFlow, setUpCalls } from './fixtures/calls.ts';
import { DesignerPage } from './fixtures/designerPage.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// A pinned call (docs/format.md#pinned-answers): the answer of a test request, pinned, answers
// the call in every process, and nothing is sent. The server is the test's own, on 127.0.0.1,
// letting the page's origin read its answers (CORS); `/echo` answers with the request it got,
// so an answer tells which request it was: the test request's key is `wakeflow-test-…`.
let server: TestServer;
test.beforeAll(async () => (server = await startTestServer({ cors: true })));
test.afterAll(() => server.close());

const CALL = 'Call "charged"';
const flow = () => callingFlow(server.origin, '/echo', { name: 'Pins' });
const echoes = () => server.requests.filter((r) => r.path === '/echo');

for (const colorScheme of ['light', 'dark'] as const) {
  test(`rule: a test request's answer, pinned, answers a process's call without sending it; the node shows the pin, the export holds it, a reload keeps it (${colorScheme} theme)`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    const app = new InspectorPage(page);
    const designer = new DesignerPage(page);
    await app.goto();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
    const file = flow();
    await app.importFlows('pins.flow.json', file);
    await setUpCalls(page, server.origin);
    await app.selectNode('pay');
    const call = designer.group(CALL);

    const before = echoes().length;
    await call.getByRole('button', { name: 'Send a test request' }).click();
    await expect(call.getByRole('status')).toContainText('Status 200');
    expect(echoes()).toHaveLength(before + 1);
    const testKey = echoes().at(-1)!.headers['idempotency-key'];
    expect(testKey).toMatch(/^wakeflow-test-/);

    // Pinned from the keyboard, as from a click.
    await call.getByRole('button', { name: 'Pin this answer' }).focus();
    await page.keyboard.press('Enter');
    const pinned = call.getByRole('group', { name: 'Pinned answer' });
    await expect(pinned).toContainText('Answered by a pin: status 200');
    const marker = app.node('pay').getByRole('img', { name: 'Answered by a pin' });
    await expect(marker).toBeVisible();
    const axe = await new AxeBuilder({ page })
      .include('[aria-label="Properties"]')
      .include('.react-flow__node')
      .withTags(['wcag2a', 'wcag2aa'])
      .analyze();
    expect(
      axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help}`),
    ).toEqual([]);

    // A process reaches the call: the pin answers it, and the server hears nothing from it.
    const id = await app.start(file.name);
    await expect(app.rowStatus(id)).toHaveText('done');
    expect(echoes()).toHaveLength(before + 1);
    await app.inspect(id);
    const { payment } = (await app.context()) as {
      payment: { ok: boolean; status: number; body: { headers: Record<string, string> } };
    };
    expect(payment).toMatchObject({ ok: true, status: 200, attempts: 1 });
    // The test request's own echo: its key, not the process's.
    expect(payment.body.headers['idempotency-key']).toBe(testKey);
    await expect(app.journal.filter({ hasText: 'answered by its pin' })).toHaveCount(1);

    // The export of the flow holds its pin.
    await app.selectNode('pay');
    const exported = JSON.parse((await designer.download('Export with sub-flows')).text) as {
      pins?: { flow: string; node: string; trigger: string; status: number }[];
    };
    expect(exported.pins).toMatchObject([
      { flow: file.id, node: 'pay', trigger: 'charged', status: 200 },
    ]);

    // Kept in the workspace: a reload shows it still, and Unpin removes it.
    await app.reload();
    await expect(app.node('pay').getByRole('img', { name: 'Answered by a pin' })).toBeVisible();
    await app.selectNode('pay');
    await designer.group(CALL).getByRole('button', { name: 'Unpin the answer of charged' }).click();
    await expect(designer.group(CALL).getByRole('group', { name: 'Pinned answer' })).toHaveCount(0);
    await expect(app.node('pay').getByRole('img', { name: 'Answered by a pin' })).toHaveCount(0);
    await context.close();
  });
}
