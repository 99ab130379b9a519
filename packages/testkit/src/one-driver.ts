import type { Driver } from '@sess/db';
import { testDriver } from './test-env.ts';

const CHILD_PROCESS = 'a child process or a packed install; the database is not what it tests, one driver is enough';
const OTHER_SESSION = 'needs a second session on the database, which PGlite (one in-process connection) cannot have';
const BROWSER_ONLY = 'a browser checks how the pages look and read; the database under them is not what it tests';
const STOPPABLE = 'needs a database server that can be stopped or cut off under the app';

/**
 * Every suite and test that runs on one driver only, and why: the one place a driver skip is
 * decided. A test names its entry with `onlyOn` (`describe.runIf(onlyOn('...'))`).
 */
export const ONE_DRIVER_TESTS = {
  // packages/service/db
  'db: lock_timeout and statement_timeout of the pool': { driver: 'postgres', reason: OTHER_SESSION },
  'db: the pool keeps connections for reads': { driver: 'postgres', reason: 'PGlite has one connection, no pool' },
  'db: the breaker while PostgreSQL is stopped': { driver: 'postgres', reason: STOPPABLE },
  'db: connections that fail, bounded waits': { driver: 'postgres', reason: STOPPABLE },
  'db: bus across replicas and connection loss': { driver: 'postgres', reason: OTHER_SESSION },
  'db: embedded database files': { driver: 'pglite', reason: 'the data directory and its lock are PGlite’s' },
  'db: the embedded database line and checkpoints': { driver: 'pglite', reason: 'the line and checkpoints are PGlite’s' },
  'db: open_counts locked only inside the commit': { driver: 'postgres', reason: OTHER_SESSION },
  // packages/service/oauth
  'oauth: a second replica sees Disconnect': { driver: 'postgres', reason: 'a second openDatabase on one server' },
  'oauth: the grant cache drops on bus reconnect': { driver: 'postgres', reason: STOPPABLE },
  'oauth: a second verifier on one PGlite': { driver: 'pglite', reason: 'the PGlite form of the replica test' },
  // packages/service/notify
  'notify: a device changed between proof and move': { driver: 'postgres', reason: OTHER_SESSION },
  'notify: another replica drops reach on commit': { driver: 'postgres', reason: OTHER_SESSION },
  // packages/service/forms
  'forms: waits across replicas': { driver: 'postgres', reason: OTHER_SESSION },
  'forms: CreateBatcher with a held counter': { driver: 'postgres', reason: OTHER_SESSION },
  'forms: decisions across replicas': { driver: 'postgres', reason: OTHER_SESSION },
  // packages/host-free/mcp, packages/host-free/client
  'mcp: the conformance suite': { driver: 'pglite', reason: 'the suite does not touch the database' },
  'client: the packed package in an empty project': { driver: 'pglite', reason: CHILD_PROCESS },
  // apps/server
  'server: tool calls at their bound': { driver: 'postgres', reason: OTHER_SESSION },
  'server: async hooks in a running Sess': { driver: 'pglite', reason: CHILD_PROCESS },
  'server: sess doctor': { driver: 'pglite', reason: CHILD_PROCESS },
  'server: npx sess, the bundled CLI': { driver: 'pglite', reason: CHILD_PROCESS },
  'server: npm run demo': { driver: 'pglite', reason: 'the demo runs on the embedded database' },
  'server: first run': { driver: 'pglite', reason: 'npm start with no DATABASE_URL is the embedded database' },
  'server: the embedded database after kill -9': { driver: 'pglite', reason: 'the embedded database’s own recovery' },
  'server: sess receipt verify': { driver: 'pglite', reason: CHILD_PROCESS },
  'server: sess receipt verify input limit': { driver: 'pglite', reason: 'no database at all' },
  'server: a lock held on a workspace’s counter': { driver: 'postgres', reason: OTHER_SESSION },
  'server: PostgreSQL stops under the app': { driver: 'postgres', reason: STOPPABLE },
  'server: PGlite closed under the app': { driver: 'pglite', reason: 'the PGlite form of the outage test' },
  'server: a rolling restart of three replicas': { driver: 'postgres', reason: 'three processes on one database' },
  'server: sess backup and restore': { driver: 'pglite', reason: 'the commands are for the embedded database' },
  'server: pg_dump and pg_restore as documented': { driver: 'postgres', reason: 'the procedure is for PostgreSQL' },
  'server: the install lines of the served packages': { driver: 'pglite', reason: CHILD_PROCESS },
  'server: the release dry run': { driver: 'pglite', reason: 'no database at all' },
  'server: an upgrade from the previous release': { driver: 'postgres', reason: 'two versions of Sess on one database' },
  'server: the form inside a chat host': {
    driver: 'postgres',
    reason: 'a browser drives the same app on either driver; the chat over MCP (chat-tools) runs on both',
  },
  'server: pages in a right-to-left language': { driver: 'postgres', reason: BROWSER_ONLY },
  'server: the account pages in two languages, to WCAG AA': { driver: 'postgres', reason: BROWSER_ONLY },
  'server: the answer pages in two languages, to WCAG AA': { driver: 'postgres', reason: BROWSER_ONLY },
  'server: the OAuth and home pages in two languages, to WCAG AA': { driver: 'postgres', reason: BROWSER_ONLY },
  'server: finding the previous release': { driver: 'pglite', reason: 'no database at all (git and lockfiles)' },
  // apps/stdio, apps/openclaw
  'stdio: sess-mcp as a process': { driver: 'pglite', reason: CHILD_PROCESS },
  'stdio: Claude Code as the MCP host': { driver: 'pglite', reason: CHILD_PROCESS },
  'stdio: the packed package in an empty project': { driver: 'pglite', reason: CHILD_PROCESS },
  'openclaw: the plugin in a real Gateway': { driver: 'pglite', reason: CHILD_PROCESS },
  'openclaw: the plugin in a real OpenClaw CLI': { driver: 'pglite', reason: CHILD_PROCESS },
} as const satisfies Record<string, { driver: Driver; reason: string }>;

export type OneDriverTest = keyof typeof ONE_DRIVER_TESTS;

/** Whether the listed suite or test runs on this project's driver. */
export function onlyOn(test: OneDriverTest): boolean {
  return testDriver() === ONE_DRIVER_TESTS[test].driver;
}
