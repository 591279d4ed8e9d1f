import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from './build/csp.ts';

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  // As a header too, so that it reaches the Web Workers (where imported files and JSONata run):
  // a worker is under the policy its own script is served with, not the page's meta tag.
  preview: { headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
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
