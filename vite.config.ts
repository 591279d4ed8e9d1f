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
    environment: 'node',
    setupFiles: ['./vitest.setup.ts'],
  },
});
