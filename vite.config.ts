import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { contentSecurityPolicy } from './build/csp.ts';

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  test: {
    include: [
      'shared/**/*.test.ts',
      'runtime/**/*.test.ts',
      'web/**/*.test.{ts,tsx}',
      'build/**/*.test.ts',
    ],
    // These need a Restate server: npm run test:restate runs them (runtime/restate/vitest.config.ts).
    exclude: ['runtime/restate/server-tests/**', 'node_modules/**'],
    environment: 'node',
    setupFiles: ['./vitest.setup.ts'],
  },
});
