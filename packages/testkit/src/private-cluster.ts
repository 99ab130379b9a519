import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.ts';

/**
 * A PostgreSQL server of a test's own, on its own port and socket directory, that the test may
 * stop and start — never the shared server the other suites use. Made with the installed
 * PostgreSQL's `initdb` and `pg_ctl`; as root they run as the `postgres` system user (initdb
 * refuses root).
 */
export interface PrivateCluster {
  port: number;
  /** A URL of a database on this server (default: the maintenance database `postgres`). */
  url(database?: string): string;
  /** Fast shutdown (`pg_ctl stop -m fast`): open connections get 57P01, new ones are refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server if it runs and deletes its files. */
  destroy(): Promise<void>;
}

/** The directory of `initdb` and `pg_ctl`: on PATH (as `command -v` finds it), or Debian's newest under /usr/lib/postgresql. */
function postgresBinDir(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = spawnSync('ls', [root], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) if (existsSync(join(root, version, 'bin', 'initdb'))) return join(root, version, 'bin');
  return undefined;
}

/** The uid and gid to run PostgreSQL's tools as: ours, or the `postgres` user's when we are root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('running as root, and there is no postgres user to run initdb as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function run(command: string, args: string[], as: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(as ?? {}) });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${output.slice(-2000)}`)),
    );
  });
}

/**
 * Makes and starts a private cluster, or says why it cannot be made here (no PostgreSQL
 * binaries, no user to run them as): the caller skips its test with that reason.
 */
export async function startPrivateCluster(): Promise<PrivateCluster | { unavailable: string }> {
  const bin = postgresBinDir();
  if (!bin) return { unavailable: 'no initdb/pg_ctl on PATH or under /usr/lib/postgresql' };
  let as: { uid: number; gid: number } | undefined;
  try {
    as = runAs();
  } catch (error) {
    return { unavailable: (error as Error).message };
  }
  const dir = mkdtempSync(join(tmpdir(), 'sess-private-pg-'));
  if (as) chownSync(dir, as.uid, as.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const pgCtl = join(bin, 'pg_ctl');
  let running = false;
  const cluster: PrivateCluster = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await run(
        pgCtl,
        [
          '-D',
          data,
          '-l',
          join(dir, 'server.log'),
          '-w',
          '-t',
          '30',
          '-o',
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
          'start',
        ],
        as,
      );
      running = true;
    },
    async stop() {
      await run(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], as);
      running = false;
    },
    async destroy() {
      try {
        if (running) await run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'], as);
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  try {
    await run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], as);
    await cluster.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: `a private cluster could not be started: ${(error as Error).message}` };
  }
  return cluster;
}
