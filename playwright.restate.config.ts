import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.ts';

// Restate's SDK logs every invocation at INFO; the tests' own failures are what matter here.
process.env.RESTATE_LOGGING ??= 'ERROR';

// The workbench attached to a real Restate server (npm run test:restate, after its Vitest files):
// one server, one endpoint and the app, started by the global setup; tests one at a time,
// since they share that server.
export default defineConfig({
  testDir: 'runtime/restate/server-tests/browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './runtime/restate/server-tests/browser/globalSetup.ts',
  workers: 1,
  retries: 0,
  // Guards against a hang only, never a budget (docs/decisions.md, "Limits are settings").
  timeout: 120_000,
  expect: { timeout: 20_000 },
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  use: {
    headless: true,
    launchOptions: { executablePath: findChromium(), args: [...CHROMIUM_ARGS] },
  },
});
