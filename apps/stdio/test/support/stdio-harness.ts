/*
 * The stdio server's integration harness: the real app (apps/server's buildApp via @sess/testkit)
 * on 127.0.0.1:0, workspaces with real API keys, and `sess-mcp` spawned as a host spawns it (the
 * workspace bin through tsx) with the SDK client's stdio transport and a temp state directory
 * (plain http to the loopback origin needs no flag). Every process's stderr is kept, and `stderrLeaks()`
 * says which secret the tests used (keys, links, link tokens, answers) appears in any of it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createApiKey } from '@sess/accounts';
import { createWorkspaceWithKey, recordSecret, type TestWorkspace, tokenOf } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';

/** The workspace bin, as `npm exec sess-mcp` runs it in this checkout. */
export const BIN = fileURLToPath(new URL('../../bin/sess-mcp.mjs', import.meta.url));

/** What one tool call returned: the structured content, and whether it is an error. */
export interface ToolOutcome {
  isError: boolean;
  structured: Record<string, unknown>;
  text: string;
}

/** A spawned `sess-mcp` with a connected client. */
export interface StdioServer {
  client: Client;
  pid: number;
  /** What the process wrote to stderr so far. */
  stderr(): string;
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** Resolves once stderr holds `line` (the test-only pause line, say). */
  waitForStderr(line: string, timeoutMs?: number): Promise<void>;
  /** SIGKILL, as a crash: nothing of the process runs after it. */
  kill9(): Promise<void>;
  close(): Promise<void>;
}

export interface StdioHarness {
  server: AppServer;
  stateDir: string;
  /** A fresh workspace on `plan` with a real API key. */
  workspace(plan?: string): Promise<TestWorkspace>;
  /** Another API key of the same workspace (a rotated key). */
  anotherKey(workspace: TestWorkspace): Promise<string>;
  /** The environment `sess-mcp` gets: loopback origin, temp state dir, the key (when given), `extra` on top. */
  env(apiKey: string | undefined, extra?: Record<string, string>): Record<string, string>;
  spawn(env: Record<string, string>): Promise<StdioServer>;
  /** Records a secret for the log audit and the stderr check. */
  secret(value: string): void;
  /** Records a link (and its token) for both. */
  link(humanUrl: string): void;
  /** Every secret found in any spawned process's stderr (empty is the only good answer). */
  stderrLeaks(): string[];
  close(): Promise<void>;
}

/** A process's environment with nothing of the test runner's: PATH and HOME only, then ours. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'SystemRoot', 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export async function startStdioHarness(options: { server?: AppServer } = {}): Promise<StdioHarness> {
  const server = options.server ?? (await startAppServer());
  const stateDir = await mkdtemp(join(tmpdir(), 'sess-mcp-test-'));
  const secrets = new Set<string>();
  const stderrs: Array<() => string> = [];
  const live = new Set<StdioServer>();

  const secret = (value: string) => {
    secrets.add(value);
    recordSecret(value, 'api-key');
  };

  const harness: StdioHarness = {
    server,
    stateDir,
    async workspace(plan = 'pro') {
      const workspace = await createWorkspaceWithKey(server.database.db, { plan });
      secrets.add(workspace.apiKey);
      return workspace;
    },
    async anotherKey(workspace) {
      const key = await createApiKey({
        ctx: { db: server.database.db, now: () => new Date() },
        input: { workspaceId: workspace.workspaceId, name: 'rotated key', createdBy: workspace.userId },
      });
      secret(key.key);
      return key.key;
    },
    env(apiKey, extra = {}) {
      return {
        ...baseEnv(),
        SESS_API_ORIGIN: server.url,
        SESS_MCP_STATE_DIR: stateDir,
        ...(apiKey ? { SESS_API_KEY: apiKey } : {}),
        ...extra,
      };
    },
    async spawn(env) {
      const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], env, stderr: 'pipe' });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      stderrs.push(() => stderr);
      const client = new Client({ name: 'sess-stdio-test', version: '1.0.0' });
      await client.connect(transport);
      const pid = transport.pid!;
      const spawned: StdioServer = {
        client,
        pid,
        stderr: () => stderr,
        async call(name, args) {
          const result = await client.callTool({ name, arguments: args });
          const text = (result.content as Array<{ type: string; text?: string }>).find((c) => c.type === 'text')?.text ?? '';
          return {
            isError: result.isError === true,
            structured: (result.structuredContent ?? {}) as Record<string, unknown>,
            text,
          };
        },
        waitForStderr(line, timeoutMs = 15_000) {
          // Resolved on the stderr chunk that completes `line`; the timer only bounds a wait that never ends.
          return new Promise<void>((resolve, reject) => {
            const check = () => {
              if (!stderr.includes(line)) return;
              transport.stderr?.off('data', check);
              clearTimeout(timer);
              resolve();
            };
            const timer = setTimeout(() => {
              transport.stderr?.off('data', check);
              reject(new Error(`sess-mcp did not write ${line}`));
            }, timeoutMs);
            transport.stderr?.on('data', check);
            check();
          });
        },
        async kill9() {
          process.kill(pid, 'SIGKILL');
          await client.close().catch(() => undefined);
          live.delete(spawned);
        },
        async close() {
          await client.close().catch(() => undefined);
          live.delete(spawned);
        },
      };
      live.add(spawned);
      return spawned;
    },
    secret,
    link(humanUrl) {
      secrets.add(humanUrl);
      secrets.add(tokenOf(humanUrl));
      recordSecret(humanUrl, 'link');
      recordSecret(tokenOf(humanUrl), 'link');
    },
    stderrLeaks() {
      const all = stderrs.map((read) => read()).join('\n');
      return [...secrets].filter((value) => value.length >= 4 && all.includes(value));
    },
    async close() {
      await Promise.allSettled([...live].map((s) => s.close()));
      if (!options.server) await server.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Runs a command of the bin to its end (doctor, --help, a bad configuration) and collects its output. */
export function runBin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, child }));
  });
}

/** The environment of a bin run with nothing of the test runner's. */
export function bareEnv(extra: Record<string, string>): Record<string, string> {
  return { ...baseEnv(), ...extra };
}

/** The `interaction` of a result, typed loosely for assertions. */
export function interactionOf(outcome: ToolOutcome): Record<string, unknown> & {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: Record<string, unknown> & { eventId: string; values: Record<string, unknown>; verified?: boolean };
  ask?: Record<string, unknown>;
} {
  if (outcome.isError) throw new Error(`tool error: ${JSON.stringify(outcome.structured.error)}`);
  return outcome.structured.interaction as ReturnType<typeof interactionOf>;
}

/** The `error` of an error result. */
export function errorOf(outcome: ToolOutcome): { code: string; retryable: boolean; message: string; reason?: string } {
  if (!outcome.isError) throw new Error(`expected a tool error, got ${JSON.stringify(outcome.structured)}`);
  return outcome.structured.error as ReturnType<typeof errorOf>;
}
