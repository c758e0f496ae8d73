import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser- and server-heavy suites share two cores; running files in parallel beyond that only adds noise.
    maxWorkers: 2,
    env: {
      // The Postgres the test script makes sure of (scripts/ensure-postgres.sh).
      WEBDATA_TEST_DATABASE_URL: process.env.WEBDATA_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/webdata_test',
    },
  },
});
