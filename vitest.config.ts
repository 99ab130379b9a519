import { defineConfig } from 'vitest/config';

// Three projects in one run: pure unit tests, then every database/HTTP/browser suite twice,
// once on embedded PGlite and once on PostgreSQL (SESS_TEST_DRIVER picks the driver).
const integration = ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: integration,
          env: { SESS_TEST_DRIVER: 'pglite' },
          globalSetup: ['packages/testkit/src/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: integration,
          env: { SESS_TEST_DRIVER: 'postgres' },
          globalSetup: ['packages/testkit/src/global-setup.ts'],
        },
      },
    ],
  },
});
