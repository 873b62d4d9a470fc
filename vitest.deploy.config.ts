import { defineConfig } from 'vitest/config';

// tests/deploy: two compiled API nodes on one PostgreSQL behind Caddy and nginx (README "Deploy").
// Needs TEST_DATABASE_URL, /usr/bin/caddy and /usr/sbin/nginx; `npm run test:deploy`.
export default defineConfig({
  test: {
    name: 'deploy',
    environment: 'node',
    include: ['tests/deploy/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
