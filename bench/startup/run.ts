// Start-to-ready: spawn the bundled server (what `npm start` and the Docker image run) and
// time until /readyz answers 200, on an existing embedded database, on PostgreSQL, and on a
// fresh data dir (first run, migrations included). Spawn and Node start-up are included.
// Run: node --import tsx bench/startup/run.ts   (PostgreSQL at 127.0.0.1:5432)
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { listeningUrl } from '../support/v1-bench.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLE = join(ROOT, 'dist', 'bench-startup', 'sess.mjs');
const RUNS = Number(process.env.RUNS ?? 5);

async function startToReady(env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [BUNDLE, 'serve'], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const base = await listeningUrl(child);
  for (;;) {
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const elapsed = performance.now() - started;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  return elapsed;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${(median / 1000).toFixed(2)} s (min ${(sorted[0]! / 1000).toFixed(2)}, max ${(sorted.at(-1)! / 1000).toFixed(2)}, n=${sorted.length})`;
}

if (spawnSync(process.execPath, ['scripts/build.mjs', '--outfile', BUNDLE], { cwd: ROOT, stdio: 'inherit' }).status !== 0) {
  throw new Error('build failed');
}
const dataDir = mkdtempSync(join(tmpdir(), 'sess-bench-startup-'));
let scratch: ScratchDatabase | undefined;
try {
  const first = await startToReady({ SESS_DATA_DIR: dataDir });
  const embedded: number[] = [];
  for (let i = 0; i < RUNS; i++) embedded.push(await startToReady({ SESS_DATA_DIR: dataDir }));

  // The local server, as this bench always used (it does not read BENCH_DATABASE_URL).
  scratch = await createScratchDatabase('sess_bench_startup', 'postgres://postgres@127.0.0.1:5432/postgres');
  const url = scratch.url;
  const pgFirst = await startToReady({ SESS_DATA_DIR: dataDir, DATABASE_URL: url });
  const pg: number[] = [];
  for (let i = 0; i < RUNS; i++) pg.push(await startToReady({ SESS_DATA_DIR: dataDir, DATABASE_URL: url }));

  console.log(
    `start to ready (/readyz 200) of dist/sess.mjs, spawn included; load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`,
  );
  console.log(`  embedded PGlite, first run (fresh data dir, migrations): ${(first / 1000).toFixed(2)} s`);
  console.log(`  embedded PGlite, existing database: ${summary(embedded)}   target <= 2 s`);
  console.log(`  PostgreSQL, first run (migrations): ${(pgFirst / 1000).toFixed(2)} s`);
  console.log(`  PostgreSQL, migrated database: ${summary(pg)}   target <= 1 s`);
} finally {
  await scratch?.drop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}
