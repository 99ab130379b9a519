// First run, timed: spawn `node sess.mjs serve` (the bundle `npm start` runs) and time until the
// start-up text prints "MCP URL:" — what a newcomer waits for — on a fresh data dir (secret,
// PGlite from its template, migrations, signing keys on first use) and on an existing one.
// Beside them, in the same rounds, the anchor: spawning `node -e 0` to its exit (the floor that
// every spawned Node pays). Rounds alternate the three so drift on a shared machine hits all.
// Run: node --import tsx bench/start/run.ts   (RUNS=7 by default; no PostgreSQL needed)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantile } from '../support/stats.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = join(ROOT, 'dist', 'bench-start', 'sess.mjs');
const RUNS = Number(process.env.RUNS ?? 7);

/** Milliseconds from spawn until stderr holds "MCP URL:"; the server is then stopped with SIGTERM. */
async function spawnToMcpUrl(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [BUNDLE, 'serve'], {
    // PORT=0: a free port each run; the first-account link on stderr is read here and dropped.
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'warn', SESS_DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const elapsed = await new Promise<number>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      if (/^MCP URL: /m.test(err)) resolve(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code} before printing the MCP URL`)));
  });
  child.kill('SIGTERM');
  await exited;
  return elapsed;
}

/** Milliseconds from spawn to exit of `node -e 0`. */
async function spawnNodeAnchor(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return performance.now() - started;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const ms = (value: number) => `${Math.round(value)} ms`;
  return `min ${ms(sorted[0]!)}, median ${ms(quantile(sorted, 0.5))}, max ${ms(sorted.at(-1)!)} (n=${sorted.length})`;
}

if (spawnSync(process.execPath, ['scripts/build.mjs', '--outfile', BUNDLE], { cwd: ROOT, stdio: 'inherit' }).status !== 0) {
  throw new Error('build failed');
}
const existingDir = mkdtempSync(join(tmpdir(), 'sess-bench-start-existing-'));
const freshDirs: string[] = [];
try {
  // The existing data dir is made by one first run, not timed.
  await spawnToMcpUrl(existingDir);
  const fresh: number[] = [];
  const existing: number[] = [];
  const anchor: number[] = [];
  for (let round = 0; round < RUNS; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'sess-bench-start-fresh-'));
    freshDirs.push(dir);
    fresh.push(await spawnToMcpUrl(dir));
    existing.push(await spawnToMcpUrl(existingDir));
    anchor.push(await spawnNodeAnchor());
  }
  console.log(`spawn of dist sess.mjs serve until "MCP URL:" on stderr; load average ${loadavg()[0]!.toFixed(2)}`);
  console.log(`  fresh data dir (secret, database, migrations): ${summary(fresh)}`);
  console.log(`  existing data dir:                             ${summary(existing)}`);
  console.log(`  anchor, node -e 0 spawn to exit:               ${summary(anchor)}`);
} finally {
  for (const dir of [existingDir, ...freshDirs]) rmSync(dir, { recursive: true, force: true });
}
