import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ProcessesPage } from './fixtures/processesPage.ts';

// The built app, served as it would be deployed, under its Content-Security-Policy.
const PORT = Number(process.env.E2E_PREVIEW_PORT ?? 5197);
let server: ChildProcess | undefined;
let out = '';

test.beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'wakeflow-preview-'));
  execFileSync('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
    stdio: 'pipe',
  });
  server = spawn(
    'npx',
    [
      'vite',
      'preview',
      '--outDir',
      out,
      '--host',
      '127.0.0.1',
      '--port',
      String(PORT),
      '--strictPort',
    ],
    // Its own process group, so that stopping it stops the server npx started too.
    { stdio: 'pipe', detached: true },
  );
  await new Promise<void>((resolve, reject) => {
    server!.stdout!.on('data', (d: Buffer) => d.toString().includes(String(PORT)) && resolve());
    server!.on('exit', (code) => reject(new Error(`vite preview exited with ${code}`)));
  });
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid);
  rmSync(out, { recursive: true, force: true });
});

test('the built app runs under its Content-Security-Policy with no violation', async ({ page }) => {
  test.setTimeout(180_000);
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(
        `${e.violatedDirective} ${e.blockedURI}`,
      ),
    );
  });
  await page.goto(`http://127.0.0.1:${PORT}/`);
  const app = new ProcessesPage(page);
  await app.waitUntilOpen();
  await app.start('Fan-out with a join', { amount: 700 });
  await expect(app.status(app.first)).toHaveText('done');
  await page.getByRole('button', { name: 'Auto-layout' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Laying out' })).toHaveCount(0);
  expect(violations).toEqual([]);
});
