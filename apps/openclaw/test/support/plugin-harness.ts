/*
 * The plugin's test harness: the four tools built with `createSessTools` as the entry builds
 * them, each set in its own temp OpenClaw state directory, with the Gateway's environment given
 * per set (loopback origin of the real app and the test-only http flag, then the test's own), and
 * their log lines kept. Every secret a test uses (keys, links, link tokens) is recorded for the
 * log audit and for `leaks`, which says which of them a text holds.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordSecret, tokenOf } from '@sess/testkit';
import type { AppServer } from '@sess/testkit/app-server';
import { createSessTools, type OpenclawToolName, type SessToolResult } from '../../src/index.ts';

/** One Gateway's tools: call one by name as OpenClaw does (`execute(toolCallId, params, signal)`). */
export interface PluginTools {
  stateDir: string;
  call(name: OpenclawToolName, params: unknown, signal?: AbortSignal): Promise<SessToolResult>;
  /** The tool's `prepareArguments` (what OpenClaw runs before its own schema check): the thrown text, or undefined. */
  refusalBeforeCall(name: OpenclawToolName, params: unknown): string | undefined;
  logLines(): string[];
}

export interface PluginHarness {
  /** The first set's state directory (tools listed without calling). */
  stateDir: string;
  /**
   * A set of tools on `env` over the defaults (SESS_API_ORIGIN the app, the http flag on), in a
   * fresh state directory or in `stateDir` (another Gateway process on the same records).
   */
  tools(env: Record<string, string>, stateDir?: string): PluginTools;
  secret(value: string): void;
  link(humanUrl: string): void;
  /** The recorded secrets `text` holds (empty is the only good answer). */
  leaks(text: string): string[];
  /** The files under `dir` whose bytes hold `value`. */
  filesHolding(dir: string, value: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startPluginHarness(server: AppServer): Promise<PluginHarness> {
  const root = await mkdtemp(join(tmpdir(), 'sess-openclaw-test-'));
  const secrets = new Set<string>();
  let sets = 0;
  let calls = 0;

  const harness: PluginHarness = {
    stateDir: join(root, 'listing'),
    tools(env, existing) {
      const stateDir = existing ?? join(root, `gateway-${++sets}`);
      const lines: string[] = [];
      const tools = createSessTools({
        env: { SESS_API_ORIGIN: server.url, ...env },
        openclawStateDir: stateDir,
        log: (line) => lines.push(line),
      });
      return {
        stateDir,
        call(name, params, signal) {
          const tool = tools.find((t) => t.name === name);
          if (!tool) throw new Error(`no tool ${name}`);
          return tool.execute(`call_${++calls}`, params, signal);
        },
        refusalBeforeCall(name, params) {
          const tool = tools.find((t) => t.name === name)!;
          try {
            tool.prepareArguments(params);
            return undefined;
          } catch (error) {
            return (error as Error).message;
          }
        },
        logLines: () => [...lines],
      };
    },
    secret(value) {
      secrets.add(value);
      recordSecret(value, 'api-key');
    },
    link(humanUrl) {
      secrets.add(humanUrl);
      secrets.add(tokenOf(humanUrl));
      recordSecret(humanUrl, 'link');
      recordSecret(tokenOf(humanUrl), 'link');
    },
    leaks(text) {
      return [...secrets].filter((value) => value.length >= 4 && text.includes(value));
    },
    async filesHolding(dir, value) {
      const found: string[] = [];
      for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath, entry.name);
        if ((await readFile(path, 'utf8')).includes(value)) found.push(path);
      }
      return found;
    },
    async close() {
      await rm(root, { recursive: true, force: true });
    },
  };
  return harness;
}
