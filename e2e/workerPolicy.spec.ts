import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { serveBuiltApp, type PreviewServer } from './fixtures/previewServer.ts';

// The built app as deployed (`vite preview`, which serves the policy as a header as well).
let app: PreviewServer | undefined;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await serveBuiltApp();
});
test.afterAll(() => app?.close());

test("rule: the runtime's worker runs under a policy of its own: no string eval, but requests to other http(s) origins, where calls go; the page keeps connect-src 'self'", async ({
  page,
}) => {
  // Another local server, which counts what reaches it.
  let requests = 0;
  const other = createServer((_req, res) => {
    requests++;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.end('reached');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const port = (other.address() as AddressInfo).port;
  try {
    const workerScripts: { url: string; policy: string | null }[] = [];
    page.on('response', (r) => {
      if (/\/assets\/\w+Worker-[\w-]+\.js$/.test(new URL(r.url()).pathname))
        workerScripts.push({
          url: r.url(),
          policy: r.headers()['content-security-policy'] ?? null,
        });
    });
    await page.goto(`${app!.origin}/`);
    await expect(page.getByRole('textbox', { name: 'Flow name' })).not.toHaveValue('');
    const runtime = page.workers().find((w) => w.url().includes('runtimeWorker'));
    expect(runtime).toBeDefined();
    // Tried from a task of the worker's own, after the evaluation: Playwright's evaluation itself
    // is allowed string eval by the debugging protocol, what the worker runs later is not.
    const tried = await runtime!.evaluate(
      (url) =>
        new Promise<Record<string, string>>((resolve) =>
          setTimeout(async () => {
            const outcome = async (attempt: () => unknown) => {
              try {
                await attempt();
                return 'allowed';
              } catch (e) {
                return e instanceof Error ? e.name : String(e);
              }
            };
            resolve({
              eval: await outcome(() => (0, eval)('1 + 1')),
              function: await outcome(() => new Function('return 1')()),
              fetch: await outcome(() => fetch(url)),
            });
          }, 0),
        ),
      `http://127.0.0.1:${port}/`,
    );
    // Its policy lets it connect out (the allowlist, in the worker, decides which calls go)…
    expect(tried).toEqual({ eval: 'EvalError', function: 'EvalError', fetch: 'allowed' });
    expect(requests).toBe(1);
    const runtimeScript = workerScripts.find((w) => w.url.includes('runtimeWorker-'));
    expect(runtimeScript?.policy).toContain("connect-src 'self' http: https:");
    expect(runtimeScript?.policy).toContain("script-src 'self'");
    // …and the page, and every other worker's script, keep no network but the app's own.
    const others = workerScripts.filter((w) => !w.url.includes('runtimeWorker-'));
    // The step relay's worker starts with the runtime's.
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) expect(other.policy).toContain("connect-src 'self';");
    const fromPage = await page.evaluate(
      (url) =>
        fetch(url).then(
          () => 'allowed',
          (e: unknown) => (e instanceof Error ? e.name : String(e)),
        ),
      `http://127.0.0.1:${port}/`,
    );
    expect(fromPage).toBe('TypeError');
    expect(requests).toBe(1);
  } finally {
    other.close();
  }
});
