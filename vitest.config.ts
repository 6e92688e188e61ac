import { defineConfig } from 'vitest/config';

/**
 * One suite, run per database: `unit` once, the API suite on SQLite always and on PostgreSQL
 * when TEST_DATABASE_URL is set (CI sets it). Test names are prefixed with the project name.
 */
const postgres = process.env.TEST_DATABASE_URL;
const redis = process.env.TEST_REDIS_URL;

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'sqlite', include: ['test/api/**/*.test.ts', 'test/sqlite/**/*.test.ts'], env: { TEST_DB: 'sqlite' } } },
      ...(postgres
        ? [{ extends: true as const, test: { name: 'postgres', include: ['test/api/**/*.test.ts', 'test/postgres/**/*.test.ts'], env: { TEST_DB: 'postgres' } } }]
        : []),
      // The machine's Chromium driving the hosted checkout against the real server (SQLite).
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], env: { TEST_DB: 'sqlite' }, globalSetup: ['test/support/build-bundles.ts'] } },
      ...(redis ? [{ extends: true as const, test: { name: 'redis', include: ['test/redis/**/*.test.ts'], env: { TEST_DB: 'sqlite' } } }] : []),
    ],
  },
});
