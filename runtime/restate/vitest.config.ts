import { defineConfig } from 'vitest/config';

// Restate's SDK logs every invocation at INFO; the tests' own failures are what matter here.
process.env.RESTATE_LOGGING ??= 'ERROR';

// The tests that need a Restate server (npm run test:restate): one server and one endpoint for
// all of them, started by globalSetup.ts; files one at a time, since they share that server.
export default defineConfig({
  test: {
    include: ['runtime/restate/server-tests/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['./vitest.setup.ts'],
    globalSetup: ['./runtime/restate/server-tests/globalSetup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
