import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyPassword } from '@sess/accounts';
import { type Database, memberships, openDatabase, users } from '@sess/db';
import {
  childLogLevel,
  createChildOutputSplitter,
  createTestDatabase,
  recordSecret,
  TestBrowser,
  type TestDatabase,
  testDriver,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const onPostgres = testDriver() === 'postgres';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the CLI; its log lines (at trace under the log audit) go to the audit, never into `stdout`. */
function start(args: string[], env: Record<string, string>): { child: ChildProcess; stdout: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: childLogLevel('warn'), NODE_ENV: 'development', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const logs = createChildOutputSplitter();
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += logs.write(d)));
  child.stdout!.on('end', () => (stdout += logs.end()));
  return { child, stdout: () => stdout };
}

/** Runs the real CLI to completion, writing `stdin` (then closing it). */
function runCli(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  recordSecret(stdin.split('\n')[0], 'password');
  return new Promise((resolve) => {
    const { child, stdout } = start(args, env);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout: stdout(), stderr }));
    // A command that fails before reading stdin closes it early; that is not the test's error.
    child.stdin!.on('error', () => {});
    child.stdin!.end(stdin);
  });
}

/** Starts `sess serve` and resolves once it printed its startup text (its address, and the first-account link if any). */
function serve(env: Record<string, string>): Promise<{ url: string; stderr: () => string; stop: () => Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const { child } = start(['serve'], { PORT: '0', ...env });
    let stderr = '';
    let resolved = false;
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const ready = (url: string) => {
      if (resolved) return;
      resolved = true;
      resolve({
        url,
        stderr: () => stderr,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stderr!.on('data', (d) => {
      stderr += d;
      for (const [, token] of stderr.matchAll(/signup\?token=([\w-]+)/g)) recordSecret(token, 'link');
      const url = stderr.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
      // The startup text ends with its "Other clients:" line; a first-account link comes before it.
      if (url && /^Other clients: \S+\n/m.test(stderr)) ready(url);
    });
    child.on('exit', (code) => {
      if (!resolved) reject(new Error(`serve exited ${code}: ${stderr}`));
    });
  });
}

/** Where the child's database is: a PostgreSQL URL, or a data dir of its own (PGlite is single-process). */
async function childDatabase(): Promise<{
  env: Record<string, string>;
  open: () => Promise<Database>;
  cleanup: () => Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-accounts-cli-'));
  if (onPostgres) {
    const database: TestDatabase = await createTestDatabase();
    return {
      env: { DATABASE_URL: database.url!, SESS_DATA_DIR: dataDir },
      open: async () => database,
      cleanup: async () => {
        await database.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  // A copy of the run's migrated template: no initdb, no migrations in every child.
  cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  rmSync(join(dataDir, 'pglite', 'sess.lock'), { force: true });
  let opened: Database | undefined;
  return {
    env: { SESS_DATA_DIR: dataDir },
    open: async () => {
      opened ??= await openDatabase({ dataDir: join(dataDir, 'pglite') });
      return opened;
    },
    cleanup: async () => {
      await opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('sess user create (child process)', () => {
  let db: Awaited<ReturnType<typeof childDatabase>>;
  let results: Run[] = [];
  beforeAll(async () => {
    db = await childDatabase();
    // Run every command first (PGlite's files can be open in one process at a time), check after.
    results = [
      await runCli(['user', 'create', '--email', 'Admin@Example.com'], db.env, 'a long admin password\n'),
      await runCli(['user', 'create', '--email', 'admin@example.com'], db.env, 'another long password\n'),
      await runCli(['user', 'create', '--email=short@example.com'], db.env, 'short\n'),
      await runCli(['user', 'create'], db.env, 'a long admin password\n'),
      await runCli(['user', 'create', '--email', 'piped@example.com'], db.env, 'piped without newline at all'),
    ];
  }, 180_000);
  afterAll(() => db.cleanup());

  it('creates the account from the password on stdin (never an argument) and prints its ids', async () => {
    const [created] = results;
    expect(created!.code).toBe(0);
    expect(created!.stdout).toMatch(/^Created user usr_[a-z2-7]{26} <admin@example\.com> with workspace ws_[a-z2-7]{26}\.\n$/);
    const database = await db.open();
    const [user] = await database.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    expect(await verifyPassword('a long admin password', user!.passwordHash!)).toBe(true);
    const seats = await database.db.select().from(memberships).where(eq(memberships.userId, user!.id));
    expect(seats.map((s) => s.role)).toEqual(['owner']);
  });

  it('refuses an e-mail that is taken (exit 1, one line)', () => {
    expect(results[1]!.code).toBe(1);
    expect(results[1]!.stderr).toBe('sess: An account with this email already exists.\n');
  });

  it('refuses a short password (exit 1) and creates nothing', async () => {
    expect(results[2]!.code).toBe(1);
    expect(results[2]!.stderr).toBe('sess: Use at least 10 characters.\n');
    const database = await db.open();
    expect(await database.db.select().from(users).where(eq(users.email, 'short@example.com'))).toEqual([]);
  });

  it('asks for --email (exit 2)', () => {
    expect(results[3]!.code).toBe(2);
    expect(results[3]!.stderr).toContain('usage: sess user create --email <email>');
  });

  it('takes a piped password without a trailing newline', async () => {
    expect(results[4]!.code).toBe(0);
    const database = await db.open();
    const [user] = await database.db.select().from(users).where(eq(users.email, 'piped@example.com'));
    expect(await verifyPassword('piped without newline at all', user!.passwordHash!)).toBe(true);
  });
});

describe('sess serve on an empty database (child process)', () => {
  it('prints a one-time first-account link that works under SESS_SIGNUP=closed, once; no link once an account exists', async () => {
    const db = await childDatabase();
    try {
      const first = await serve({ ...db.env, SESS_SIGNUP: 'closed' });
      let link: string;
      try {
        const printed = first.stderr().match(/\n {2}(http:\/\/localhost:0\/signup\?token=[A-Za-z0-9_-]{43})\n/);
        expect(printed, first.stderr()).not.toBeNull();
        link = new URL(printed![1]!).pathname + new URL(printed![1]!).search;
        expect(first.stderr().match(/signup\?token=/g)).toHaveLength(1);
        const browser = new TestBrowser(first.url);
        const signedUp = await browser.submit(link, '/signup', {
          email: 'first@example.com',
          password: 'the very first password',
        });
        expect(signedUp.status).toBe(303);
        expect((await browser.get('/account')).html).toContain('first@example.com');
        expect((await new TestBrowser(first.url).get(link)).status).toBe(410);
        expect((await new TestBrowser(first.url).get('/signup')).status).toBe(403);
      } finally {
        expect(await first.stop()).toBe(0);
      }
      const second = await serve({ ...db.env, SESS_SIGNUP: 'closed' });
      try {
        expect(second.stderr()).not.toContain('signup?token=');
      } finally {
        await second.stop();
      }
    } finally {
      await db.cleanup();
    }
  }, 180_000);
});
