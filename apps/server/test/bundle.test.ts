import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childLogLevel, createChildOutputSplitter, createTestDatabase, freePort, testDriver } from '@sess/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const outDir = join(ROOT, 'dist', `test-${testDriver()}-${process.pid}`);

beforeAll(() => {
  const result = spawnSync(process.execPath, ['scripts/build.mjs', '--outfile', join(outDir, 'sess.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

it('the bundled server (what `npm start` and the Docker image run) migrates, serves /readyz and its metrics, and stops on SIGTERM', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sess-bundle-'));
  const metricsPort = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: childLogLevel('warn'),
    SESS_DATA_DIR: dataDir,
  };
  // On PostgreSQL: an empty database of its own, so the bundle applies every migration itself.
  const database = testDriver() === 'postgres' ? await createTestDatabase({ migrated: false }) : undefined;
  if (database?.url) env.DATABASE_URL = database.url;
  const child = spawn(process.execPath, [join(outDir, 'sess.mjs'), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Its log lines go to the log audit (nothing else is on its stdout).
  const logs = createChildOutputSplitter();
  child.stdout.on('data', (d) => logs.write(d));
  child.stdout.on('end', () => logs.end());
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
        const match = /listening on (http:\/\/[^,]+),/.exec(err);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    // prom-client bundled too: the metrics listener answers, with the /readyz just served counted.
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('sess_http_requests_total{method="GET",route="/readyz",code="200"} 1');
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  } finally {
    child.kill('SIGKILL');
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
