import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.ts';

// An uncommon fixed port, so a developer's own `npm run dev` on 5173 is never mistaken for ours.
const PORT = Number(process.env.E2E_PORT ?? 5183);
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  // Guards against a hang only, never a budget: a busy or slow machine takes longer to reach the
  // same state, and a test must not fail for it (docs/decisions.md, "Limits are settings").
  timeout: 120_000,
  expect: { timeout: 20_000 },
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  use: {
    baseURL: BASE_URL,
    headless: true,
    launchOptions: {
      executablePath: findChromium(),
      args: [...CHROMIUM_ARGS],
    },
  },
  webServer: {
    command: `npx vite --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: BASE_URL,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
