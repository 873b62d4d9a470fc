import { defineConfig } from 'vitest/config';

// End-to-end runs drive a real Chromium against the built app served by the real server,
// one file at a time because each starts its own server and browser.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
