import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Four projects in one run: pure unit tests, then every database/HTTP/browser suite twice,
// once on embedded PGlite and once on PostgreSQL (SESS_TEST_DRIVER picks the driver), then the
// log audit, which reads what those two captured (every log line at level trace, every secret the
// tests used) and fails on any secret in any line: packages/testkit/log-audit/README.md.
const integration = ['packages/*/test/**/*.test.ts', 'packages/*/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'];
const LOG_AUDIT_SETUP = 'packages/testkit/src/log-audit/global-setup.ts';

export default defineConfig({
  test: {
    reporters: ['default'],
    // At least two test files at once. The suites wait on databases, browsers and child processes
    // most of the time, and vitest's default (one fewer than the CPUs) ran one file at a time on
    // a 2-core machine: the whole suite took 1,766 s with one worker and 1,067 s with two (same
    // tree, quiet machine, 3,800 passed both times).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'pglite',
          include: integration,
          env: { SESS_TEST_DRIVER: 'pglite' },
          globalSetup: ['packages/testkit/src/global-setup.ts', LOG_AUDIT_SETUP],
          setupFiles: ['packages/testkit/src/log-audit/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: integration,
          env: { SESS_TEST_DRIVER: 'postgres' },
          globalSetup: ['packages/testkit/src/global-setup.ts', LOG_AUDIT_SETUP],
          setupFiles: ['packages/testkit/src/log-audit/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'log-audit',
          include: ['packages/testkit/log-audit/*.test.ts'],
          globalSetup: [LOG_AUDIT_SETUP],
          // After every other project of the run (they are all in group 0).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
