import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, onlyOn } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, startCli } from './support/cli-process.ts';

/*
 * A running Sess installs no async hook, even after it has served its pages. An async hook (an
 * AsyncLocalStorage.run is enough, on Node 20) makes every promise of every request pay an init
 * hook for the rest of the process's life; hono/jsx would install one at the first page rendered
 * (see packages/service/web/src/render-document.ts). The real `sess serve` in a child process, with a
 * preload that reports on SIGUSR2 (support/async-hook-probe.cjs). PGlite only: this tests the
 * process, not the driver.
 */

const PROBE = fileURLToPath(new URL('./support/async-hook-probe.cjs', import.meta.url));
const SLOW = { timeout: 180_000 };

/** Asks the probe for a report (SIGUSR2) and resolves with it once it is printed: the next one after those already there. */
async function hooksReported(server: CliProcess): Promise<string> {
  const earlier = server.stderr().match(/async init hooks: (true|false)/g)?.length ?? 0;
  server.child.kill('SIGUSR2');
  const next = new RegExp(`^(?:[\\s\\S]*?async init hooks: (?:true|false)){${earlier}}[\\s\\S]*?async init hooks: (true|false)`);
  return (await server.waitFor(next, 5_000))[1]!;
}

describe.runIf(onlyOn('server: async hooks in a running Sess'))('async hooks in a running Sess (child process)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'sess-hooks-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function serve(extra: Record<string, string> = {}): Promise<{ server: CliProcess; base: string }> {
    const port = String(await freePort());
    const server = startCli(['serve'], { SESS_DATA_DIR: dataDir, PORT: port, ...extra }, undefined, [
      '--expose-internals',
      '--require',
      PROBE,
    ]);
    await server.waitFor(/Sess is running at/, 120_000);
    return { server, base: `http://127.0.0.1:${port}` };
  }

  async function stop(server: CliProcess): Promise<void> {
    server.child.kill('SIGTERM');
    await server.exited;
  }

  it('none after the home, sign-in, sign-up and error pages were served', SLOW, async () => {
    const { server, base } = await serve();
    try {
      expect(await hooksReported(server)).toBe('false');
      const signup = /\/signup\?token=[\w-]+/.exec(server.stdout())?.[0] ?? '/signup';
      for (const [path, status] of [
        ['/', 200],
        ['/signin', 200],
        [signup, 200],
        ['/s/not-a-link-of-this-server', 404],
      ] as const) {
        const response = await fetch(base + path);
        expect(response.status, path).toBe(status);
        expect(await response.text(), path).toMatch(/^<!doctype html>/);
      }
      expect(await hooksReported(server)).toBe('false');
    } finally {
      await stop(server);
    }
  });

  it('the check sees a hook when the process has one (the probe installs one itself)', SLOW, async () => {
    const { server } = await serve({ SESS_TEST_HOOK_CONTROL: '1' });
    try {
      expect(await hooksReported(server)).toBe('true');
    } finally {
      await stop(server);
    }
  });
});
