import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childLogLevel, createChildOutputSplitter, createTestDatabase, createTestLogger, type TestDatabase } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type RunningServer, startServer } from '../src/index.ts';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** Runs the real CLI in a child process and resolves with its exit code and output. */
function runCli(args: string[], env: Record<string, string>, untilReady?: (out: string) => boolean) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: childLogLevel('warn'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Log lines (at trace under the log audit) go to the audit; the test sees the rest of stdout.
    const logs = createChildOutputSplitter();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += logs.write(d)));
    child.stdout.on('end', () => (stdout += logs.end()));
    let stopped = false;
    child.stderr.on('data', (d) => {
      stderr += d;
      if (!stopped && untilReady?.(stderr)) {
        stopped = true;
        child.kill('SIGTERM');
      }
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('configuration errors (child process)', () => {
  it.each([
    [{ PORT: 'eighty' }, /^sess: PORT must be a whole number from 0 to 65535 \(got "eighty"\)\.\n$/],
    [{ PORT: '70000' }, /^sess: PORT must be a whole number from 0 to 65535 \(got "70000"\)\.\n$/],
    [{ DATABASE_URL: 'mysql://db/sess' }, /^sess: DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/\.\n$/],
    [{ DATABASE_URL: 'not a url' }, /^sess: DATABASE_URL must be a URL such as postgres:\/\/user:password@host:5432\/sess\.\n$/],
    [{ NODE_ENV: 'production' }, /^sess: SESS_SECRET is required when NODE_ENV=production/],
    [{ SESS_SECRET: 'short' }, /^sess: SESS_SECRET must be at least 32 characters/],
    [{ PUBLIC_URL: 'ftp://x' }, /^sess: PUBLIC_URL must start with https:\/\//],
    [
      { SESS_TRUSTED_PROXIES: 'loopback,10.0.0.0/33' },
      /^sess: SESS_TRUSTED_PROXIES must be addresses or CIDR ranges separated by commas, such as 10\.0\.0\.0\/8,loopback \(invalid range on address: 10\.0\.0\.0\/33\) \(got "loopback,10\.0\.0\.0\/33"\)\.\n$/,
    ],
    [{ LOG_LEVEL: 'loud' }, /^sess: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "loud"\)\.\n$/],
  ])('%o fails before listening with one line and exit code 2', async (env: Record<string, string>, message) => {
    const result = await runCli(['serve'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(result.stdout).toBe('');
  });

  it('never echoes a DATABASE_URL, which can hold a password', async () => {
    const result = await runCli(['migrate'], { DATABASE_URL: 'mysql://user:hunter2@db/sess' });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('refuses an unknown command with exit code 2', async () => {
    const result = await runCli(['frobnicate'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "frobnicate"');
  });
});

describe('serve (child process, embedded database)', () => {
  it('creates the data dir and a 0600 secret, prints its URL, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sess-cli-'));
    try {
      const result = await runCli(['serve'], { PORT: '0', SESS_DATA_DIR: dataDir }, (err) => err.includes('Sess is running at'));
      expect(result.stderr).toMatch(
        /Sess is running at http:\/\/localhost:0 \(listening on http:\/\/127\.0\.0\.1:\d+, pglite database\)/,
      );
      expect(result.code).toBe(0);
      expect(statSync(join(dataDir, 'secret')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('HTTP server', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let release: () => void = () => {};
  /** Called when a request reaches /test/slow. */
  let entered: () => void = () => {};
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'sess-http-'));
    const config = loadConfig({
      PORT: '0',
      SESS_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
    // The embedded driver opens its own copy of the migrated template in the data dir.
    server = await startServer(config, {
      logger: createTestLogger(),
      extend: (app) =>
        app.get('/test/slow', async (c) => {
          entered();
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return c.text('finished');
        }),
    });
  });
  afterAll(async () => {
    await server.close();
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz with no-store', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('serves the home page the OAuth metadata names as its service documentation', async () => {
    const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as {
      issuer: string;
      service_documentation: string;
    };
    expect(metadata.service_documentation).toBe(`${metadata.issuer}/`);
    const home = await fetch(`${server.url}${new URL(metadata.service_documentation).pathname}`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await home.text();
    expect(html).toContain('Connect your agent');
    expect(html).toContain(`${metadata.issuer}/mcp`);
  });

  it('puts a request id on every response and keeps a sane one sent by the caller', async () => {
    const fresh = await fetch(`${server.url}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${server.url}/nowhere`, { headers: { 'X-Request-Id': 'trace-abc123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc123');
    expect(kept.status).toBe(404);
    expect(await kept.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'There is nothing at this address.', retryable: false },
    });
  });

  it('lets an in-flight request finish on shutdown, then refuses new connections', async () => {
    const reached = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const inFlight = fetch(`${server.url}/test/slow`).then((r) => r.text());
    await reached;
    const closing = server.close();
    // New connections are refused while the request in flight still waits for its release.
    await expect
      .poll(() =>
        fetch(`${server.url}/healthz`).then(
          () => 'answered',
          () => 'refused',
        ),
      )
      .toBe('refused');
    release();
    expect(await inFlight).toBe('finished');
    await closing;
  });
});
