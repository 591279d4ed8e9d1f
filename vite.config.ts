import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { contentSecurityPolicy, previewPolicy } from './build/csp.ts';
import { ingressProxyPlugin } from './build/ingressProxyPlugin.ts';

export default defineConfig({
  // The policy as a meta tag in the built page, and as headers from `vite preview`, so that it
  // reaches the Web Workers: a worker is under the policy its own script is served with, not the
  // page's meta tag; the runtime's worker, which sends calls, is served one of its own (csp.ts).
  plugins: [react(), contentSecurityPolicy(), previewPolicy(), ingressProxyPlugin()],
  test: {
    include: [
      'shared/**/*.test.ts',
      'runtime/**/*.test.ts',
      'web/**/*.test.{ts,tsx}',
      'build/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    // These need a Restate server: npm run test:restate runs them (runtime/restate/vitest.config.ts).
    exclude: ['runtime/restate/server-tests/**', 'node_modules/**'],
    environment: 'node',
    // Guards against a hang only, never a budget: Vitest's 5 s default was reached by property
    // tests on a busy two-core machine (docs/decisions.md, "Limits are settings").
    testTimeout: 120_000,
    hookTimeout: 120_000,
    setupFiles: ['./vitest.setup.ts'],
  },
});
