/**
 * Answer page GET p99 (issue 4 target: ≤ 10 ms): the real server (startServer: migrations,
 * request logging, page headers) on 127.0.0.1:0, 200 open links, and autocannon requesting
 * `GET /s/<token>` round-robin (one indexed query + render per request). Measured at 1
 * connection (latency alone) and 10 connections, on the embedded PGlite and on PostgreSQL.
 *
 * Run: node --import tsx bench/answer-page/run.ts [pglite|postgres ...] [--seconds N]
 * (PostgreSQL at 127.0.0.1:5432; a scratch database is created and dropped.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, newId, newSecret } from '@sess/core';
import { workspaces } from '@sess/db';
import { createFormsRuntime, createSession } from '@sess/forms';
import { loadConfig, startServer } from '@sess/server';
import { sampleSurface } from '@sess/surface/test-fixtures';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../support/scratch-database.ts';

const argv = process.argv.slice(2);
const secondsFlag = argv.indexOf('--seconds');
const SECONDS = secondsFlag === -1 ? 10 : Number(argv[secondsFlag + 1]);
const drivers = argv.filter((arg) => arg === 'pglite' || arg === 'postgres');
const LINKS = 200;
const TARGET_P99_MS = 10;

const interaction = { ...sampleSurface(), description: 'The tests pass. Edit the message if you like.' };

function run(url: string, paths: string[], connections: number, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    // The load generator runs in its own thread, so it does not queue behind the server on the event loop.
    workers: 1,
    duration,
    // Each connection walks the links in turn.
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  });
}

async function measure(driver: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-bench-answer-page-'));
  // PostgreSQL: the local server (this bench does not read BENCH_DATABASE_URL); PGlite: no scratch database.
  const scratch =
    driver === 'postgres'
      ? await createScratchDatabase('sess_bench_answer_page', 'postgres://postgres@127.0.0.1:5432/postgres')
      : null;
  const secret = newSecret(32);
  const config = loadConfig({
    NODE_ENV: 'production',
    // A production server over http needs a push contact address (notifications stay on; no device, nothing sent).
    SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SESS_SECRET: secret,
    SESS_DATA_DIR: dataDir,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const logger = createLogger({ level: 'warn' });
  const server = await startServer(config, { logger });
  try {
    const runtime = createFormsRuntime({ database: server.database, publicUrl: config.publicUrl, secret, logger });
    const workspaceId = newId('workspace');
    await server.database.db.insert(workspaces).values({ id: workspaceId, name: 'bench', plan: 'enterprise' });
    const paths: string[] = [];
    for (let i = 0; i < LINKS; i += 1) {
      const created = await createSession({ ctx: { runtime, workspaceId }, input: { interaction, expires_in: 3600 } });
      paths.push(new URL(created.humanUrl).pathname);
    }
    const check = await fetch(`${server.url}${paths[0]}`);
    if (check.status !== 200 || !(await check.text()).includes('Approve this commit?')) throw new Error('page not served');

    await run(server.url, paths, 10, 2); // warm-up: JIT, prepared statements, pool
    const lines: string[] = [];
    for (const connections of [1, 10]) {
      const result = await run(server.url, paths, connections, SECONDS);
      const errors = result.errors + result.non2xx;
      lines.push(
        `  ${String(connections).padStart(2)} connection${connections === 1 ? ' ' : 's'}: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms, ${Math.round(result.requests.average)} req/s${errors ? `, ${errors} errors` : ''}`,
      );
    }
    await runtime.close();
    return lines;
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

process.stdout.write(
  `Answer page GET /s/<token> (open form, ${LINKS} links round-robin, ${SECONDS} s each; target p99 ≤ ${TARGET_P99_MS} ms)\n`,
);
// Latency tails on a shared 2-core machine follow its load: print it beside the figures.
process.stdout.write(
  `load average before: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}\n`,
);
for (const driver of drivers.length > 0 ? drivers : (['pglite', 'postgres'] as const)) {
  const lines = await measure(driver as 'pglite' | 'postgres');
  process.stdout.write(`${driver}:\n${lines.join('\n')}\n`);
}
