/*
 * A real OpenClaw for the plugin's tests: the `openclaw` 2026.9.6 and Node 24 of openclaw-host/
 * (npm test installs them when missing; by hand: `npm ci --prefix openclaw-host --ignore-scripts
 * && npm rebuild --prefix openclaw-host`), run as child processes with Node 24 first on PATH, each
 * in its own temp home (HOME and OPENCLAW_HOME), so the project's Node 20 and the machine's own
 * ~/.openclaw are never touched. Every child is asynchronous: the real apps/server the Gateway
 * calls runs in this test process and must keep serving while OpenClaw works.
 *
 * OpenClaw is slow to start on a small machine (a CLI command 5–35 s, a Gateway 30–60 s, an
 * `npm-pack:` install 1–2 min: it installs the plugin's dependencies from the registry), so the
 * timeouts here are long; npm's cache is shared between homes to spare the registry.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '@sess/testkit';

const execFileAsync = promisify(execFile);

export const pluginDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
export const repoDir = dirname(dirname(pluginDir));
/** openclaw-host's bin directory: `node` (24.x) and `openclaw`. */
export const hostBinDir = join(repoDir, 'openclaw-host', 'node_modules', '.bin');
export const openclawInstalled = existsSync(join(hostBinDir, 'openclaw')) && existsSync(join(hostBinDir, 'node'));

/** The line the README gives for a local tarball (the seed's `--no-enable` is gone in 2026.9.6). */
export function installArgs(tarball: string): string[] {
  return ['plugins', 'install', `npm-pack:${tarball}`, '--force', '--accept-capabilities'];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The plugin built as published (`dist/` as the package root) into a temp folder, and its `npm pack` tarball. */
export async function buildAndPack(): Promise<{ root: string; packageDir: string; tarball: string; close(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'sess-openclaw-pack-'));
  const packageDir = join(root, 'package');
  await execFileAsync(process.execPath, [join(pluginDir, 'scripts', 'build.mjs'), '--out', packageDir], {
    cwd: repoDir,
    maxBuffer: 16 * 1024 * 1024,
  });
  const { stdout } = await execFileAsync('npm', ['pack', packageDir, '--pack-destination', root, '--json'], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
  return { root, packageDir, tarball: join(root, packed!.filename), close: () => rm(root, { recursive: true, force: true }) };
}

/**
 * Lets `openclaw plugins validate` import the built entry in place: the published package's
 * dependencies (typebox, zod, jose, re2js) resolve from the repository's node_modules, as they
 * would from the installed package's own. (`openclaw/plugin-sdk/*` OpenClaw aliases itself.)
 */
export async function linkDependencies(packageDir: string): Promise<void> {
  await symlink(join(repoDir, 'node_modules'), join(packageDir, 'node_modules'), 'dir');
}

/** One isolated OpenClaw home: its own ~/.openclaw, run through openclaw-host's Node 24. */
export interface OpenclawHome {
  home: string;
  /** `<home>/.openclaw`: OpenClaw's state directory, its openclaw.json and .env. */
  stateDir: string;
  envFile: string;
  env: NodeJS.ProcessEnv;
  /** Writes `<home>/.openclaw/.env` (mode given, 0600 by default). */
  writeEnvFile(values: Record<string, string>, mode?: number): Promise<void>;
  run(args: string[], options?: { timeoutMs?: number }): Promise<RunResult>;
  close(): Promise<void>;
}

const SHARED_NPM_CACHE = join(tmpdir(), 'sess-openclaw-npm-cache');

/** Variables never handed to OpenClaw: the test process's own Sess and OpenClaw settings. */
function isolatedEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(SESS_|OPENCLAW_|npm_|NODE_OPTIONS$|VITEST|TEST$|NODE_ENV$)/i.test(name)) continue;
    env[name] = value;
  }
  return {
    ...env,
    HOME: home,
    OPENCLAW_HOME: home,
    PATH: `${hostBinDir}:${process.env.PATH ?? ''}`,
    npm_config_cache: SHARED_NPM_CACHE,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
}

export async function createOpenclawHome(): Promise<OpenclawHome> {
  const home = await mkdtemp(join(tmpdir(), 'sess-openclaw-home-'));
  const stateDir = join(home, '.openclaw');
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const env = isolatedEnv(home);
  const envFile = join(stateDir, '.env');
  return {
    home,
    stateDir,
    envFile,
    env,
    async writeEnvFile(values, mode = 0o600) {
      const text = Object.entries(values)
        .map(([name, value]) => `${name}=${value}\n`)
        .join('');
      await writeFile(envFile, text, { mode });
      await chmod(envFile, mode);
    },
    run: (args, options) => runOpenclaw(args, env, options?.timeoutMs ?? 240_000),
    close: () => rm(home, { recursive: true, force: true }),
  };
}

/** `openclaw <args>` with stdin closed (non-interactive), its exit code and both streams. */
export function runOpenclaw(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 240_000, cwd?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(hostBinDir, 'openclaw'), args, { env, cwd: cwd ?? env.HOME, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`openclaw ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** The Gateway's answer to `POST /tools/invoke`. */
export interface InvokeResponse {
  status: number;
  body: {
    ok: boolean;
    result?: { content: Array<{ type: string; text: string }>; details: Record<string, unknown> };
    error?: { type: string; message: string };
  };
}

export interface Gateway {
  url: string;
  /** Everything the Gateway wrote to stdout and stderr so far. */
  output(): string;
  invoke(tool: string, args: unknown, options?: { token?: string | null }): Promise<InvokeResponse>;
  stop(): Promise<void>;
}

/**
 * `openclaw gateway run` in the foreground, headless: loopback only, shared-token auth, no channel
 * or model configured (`--allow-unconfigured`). Ready when `/tools/invoke` answers an
 * authenticated request (a 404 for a tool that does not exist).
 */
export async function startGateway(home: OpenclawHome, token: string, timeoutMs = 240_000): Promise<Gateway> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(hostBinDir, 'openclaw'),
    ['gateway', 'run', '--port', String(port), '--bind', 'loopback', '--auth', 'token', '--allow-unconfigured'],
    { env: { ...home.env, OPENCLAW_GATEWAY_TOKEN: token }, cwd: home.home, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;

  const invoke: Gateway['invoke'] = async (tool, args, options = {}) => {
    const bearer = options.token === undefined ? token : options.token;
    const response = await fetch(`${url}/tools/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) },
      body: JSON.stringify({ tool, args }),
    });
    const text = await response.text();
    let body: InvokeResponse['body'];
    try {
      body = JSON.parse(text) as InvokeResponse['body'];
    } catch {
      throw new Error(`/tools/invoke answered ${response.status} with no JSON: ${text.slice(0, 500)}`);
    }
    return { status: response.status, body };
  };

  const stop = async () => {
    if (exited === undefined) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exit;
      clearTimeout(killer);
    }
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined) throw new Error(`the Gateway exited (${exited}) before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Gateway was not ready after ${timeoutMs} ms:\n${output}`);
    }
    try {
      const probe = await invoke('sess_probe_tool_that_does_not_exist', {});
      if (probe.status === 404) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { url, output: () => output, invoke, stop };
}

/**
 * A TCP relay in front of the real app, so a test can take Sess out of reach while the Gateway
 * keeps its configured origin: `cut()` closes the listener and every open connection (the
 * Gateway's keep-alive ones too), after which a connection is refused.
 */
export async function startRelay(targetPort: number): Promise<{ origin: string; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    async cut() {
      const closed = new Promise((resolve) => relay.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** Files under `dir` (recursively) whose names end with `suffix`. */
export async function filesEndingWith(dir: string, suffix: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix)) found.push(join(entry.parentPath, entry.name));
  }
  return found;
}
