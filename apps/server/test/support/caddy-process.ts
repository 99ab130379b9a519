import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The reverse_proxy settings of the deploy files (a snippet named sess_upstream). */
const UPSTREAM_SNIPPET = fileURLToPath(new URL('../../../../deploy/sess-upstream.caddy', import.meta.url));

/** One line of Caddy's JSON log. */
export type CaddyLogLine = Record<string, unknown> & { msg?: string };

/** Debian's caddy in front of some Sess replicas, with the deploy files' reverse_proxy settings. */
export interface CaddyProcess {
  /** Where clients connect: plain HTTP on 127.0.0.1. */
  url: string;
  /** The admin API (the test's own, on a free port): `/reverse_proxy/upstreams` counts requests in flight per replica. */
  adminUrl: string;
  child: ChildProcess;
  /** Every log line so far, in order. */
  logs(): readonly CaddyLogLine[];
  /** Resolves with the first log line at index `from` or later that `match` accepts (rejects if caddy exits first). */
  waitForLog(match: (line: CaddyLogLine) => boolean, from?: number, timeoutMs?: number): Promise<CaddyLogLine>;
  /** Stops caddy (SIGTERM) and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts `caddy run` with a Caddyfile written here: admin on `adminPort` only, no TLS, the site
 * on `http://127.0.0.1:<port>` proxying to `upstreams` with `import sess_upstream` (the deploy
 * snippet). HOME and the XDG directories point into a temporary directory, so nothing is read
 * from or written to the machine's own Caddy setup, and no system service is involved.
 */
export async function startCaddy(options: { port: number; adminPort: number; upstreams: string[] }): Promise<CaddyProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sess-caddy-'));
  const caddyfile = join(dir, 'Caddyfile');
  writeFileSync(
    caddyfile,
    `{
	admin 127.0.0.1:${options.adminPort}
	auto_https off
	grace_period 1s
}

import ${UPSTREAM_SNIPPET}

http://127.0.0.1:${options.port} {
	bind 127.0.0.1
	reverse_proxy ${options.upstreams.join(' ')} {
		import sess_upstream
	}
}
`,
  );
  const child = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: CaddyLogLine[] = [];
  const watchers = new Set<() => void>();
  let pending = '';
  let ended = false;
  let output = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    output += chunk;
    pending += chunk;
    for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
      const line = pending.slice(0, at);
      pending = pending.slice(at + 1);
      if (line.startsWith('{')) lines.push(JSON.parse(line) as CaddyLogLine);
    }
    for (const watch of [...watchers]) watch();
  });
  const exited = new Promise<void>((resolve) =>
    child.on('close', () => {
      ended = true;
      for (const watch of [...watchers]) watch();
      resolve();
    }),
  );
  child.on('error', () => {}); // a missing binary shows as the exit below

  const waitForLog: CaddyProcess['waitForLog'] = (match, from = 0, timeoutMs = 60_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        watchers.delete(check);
        reject(new Error(`caddy: timed out waiting for a log line\n${output.slice(-4000)}`));
      }, timeoutMs);
      function check() {
        const found = lines.slice(from).find(match);
        if (!found && !ended) return;
        watchers.delete(check);
        clearTimeout(timer);
        if (found) resolve(found);
        else reject(new Error(`caddy ended (is Debian's caddy installed? scripts/ensure-services.sh)\n${output.slice(-4000)}`));
      }
      watchers.add(check);
      check();
    });

  await waitForLog((line) => line.msg === 'serving initial configuration');
  return {
    url: `http://127.0.0.1:${options.port}`,
    adminUrl: `http://127.0.0.1:${options.adminPort}`,
    child,
    logs: () => lines,
    waitForLog,
    async stop() {
      if (!ended) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
