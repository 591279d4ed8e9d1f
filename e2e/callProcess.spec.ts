import { expect, test, type Page } from '@playwright/test';
import { startTestServer, type TestServer } from '../runtime/calls/fixtures/testServer.ts';
import { callingFlow as calling, setUpCalls } from './fixtures/calls.ts';
import { InspectorPage } from './fixtures/inspectorPage.ts';

// Processes that call (docs/format.md#calls), sent by the runtime's worker to a server of the
// test's own on 127.0.0.1 that lets the page's origin read its answers (CORS).
let server: TestServer;
test.beforeAll(async () => (server = await startTestServer({ cors: true })));
test.afterAll(() => server.close());

const callingFlow = (path: string) => calling(server.origin, path, { name: 'Calls' });
const allowServer = (page: Page) => setUpCalls(page, server.origin);

const keysOf = (path: string) =>
  server.requests.filter((r) => r.path === path).map((r) => r.headers['idempotency-key']);

test('rule: a process in a lone tab calls, is answered 503, retries a minute later on the virtual clock with the same Idempotency-Key, and completes with the answer at into', async ({
  page,
}) => {
  server.answerSequence = [503, 200];
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('retry.flow.json', callingFlow('/sequence'));
  await allowServer(page);
  await app.useVirtualTime();
  const id = await app.start('Calls /sequence');
  // The first attempt goes at once and is answered 503: the process waits for the retry.
  await expect.poll(() => keysOf('/sequence').length).toBe(1);
  await expect(app.rowStatus(id)).toHaveText('waiting');
  await app.advanceBy('PT1M');
  await expect(app.rowStatus(id)).toHaveText('done');
  const keys = keysOf('/sequence');
  expect(keys).toHaveLength(2);
  expect(keys[0]).toBeTruthy();
  expect(keys[1]).toBe(keys[0]);
  await app.inspect(id);
  const context = await app.context();
  expect(context).toMatchObject({ payment: { ok: true, status: 200, attempts: 2 } });
});

test('rule: a reload while a call is in flight sends the same attempt again with the same key, and the process completes once', async ({
  page,
}) => {
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('slow.flow.json', callingFlow('/slow'));
  await allowServer(page);
  const id = await app.start('Calls /slow');
  // The server holds the first attempt: the tab goes away before any answer.
  await server.slowHeld(1);
  await app.reload();
  // The new worker finds the attempt in flight and sends it again, with the same key.
  await server.slowHeld(2);
  server.releaseSlow();
  await expect(app.rowStatus(id)).toHaveText('done');
  const keys = keysOf('/slow');
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  await app.inspect(id);
  expect(await app.context()).toMatchObject({ payment: { ok: true, status: 200, attempts: 1 } });
});

test('rule: a process calling an origin the workspace does not allow is not sent; its outcome says "refused: origin not allowed"', async ({
  page,
}) => {
  const before = server.requests.length;
  const app = new InspectorPage(page);
  await app.goto();
  await app.importFlows('refused.flow.json', callingFlow('/json'));
  const id = await app.start('Calls /json');
  await expect(app.rowStatus(id)).toHaveText('done');
  await app.inspect(id);
  expect(await app.context()).toMatchObject({
    payment: { ok: false, error: 'refused: origin not allowed' },
  });
  expect(server.requests.length).toBe(before);
});
