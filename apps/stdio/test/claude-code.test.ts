/*
 * A real MCP host: Claude Code, installed from npm into a temp prefix, with a temp HOME (so it
 * reads and writes no one's configuration but this test's). It registers the installed
 * `sess-mcp` of the packed package exactly as the README tells a user (`claude mcp add --scope
 * local sess -- <command>`, the key in SESS_API_KEY of the same terminal), then `claude mcp
 * list` starts the server, speaks MCP to it and reports it connected. No model is called: no
 * Anthropic credentials exist in the temp HOME and nonessential traffic is off.
 *
 * If npm cannot install @anthropic-ai/claude-code (offline, registry refused), the test is
 * skipped by name with npm's reason, and the reason is printed: never a silent pass.
 * Runs on the pglite project only: it tests a host against the package, not the database.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createWorkspaceWithKey, onlyOn, type TestWorkspace } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const BIG = { maxBuffer: 32 * 1024 * 1024 };
const onPglite = onlyOn('stdio: Claude Code as the MCP host');

/** Installs Claude Code into a fresh prefix (from the registry, or npm's cache when it has it). */
async function installClaudeCode(): Promise<{ prefix: string; bin: string } | { reason: string }> {
  const prefix = await mkdtemp(join(tmpdir(), 'sess-claude-code-'));
  try {
    await run(
      'npm',
      ['install', '--prefix', prefix, '@anthropic-ai/claude-code', '--no-audit', '--no-fund', '--prefer-offline'],
      {
        ...BIG,
        timeout: 240_000,
      },
    );
    const bin = join(prefix, 'node_modules', '.bin', 'claude');
    await run(bin, ['--version'], { timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: prefix } });
    return { prefix, bin };
  } catch (error) {
    await rm(prefix, { recursive: true, force: true });
    const { stderr, message } = error as { stderr?: string; message?: string };
    const reason = (stderr || message || String(error)).trim().split('\n').slice(-3).join(' ').slice(0, 300);
    return { reason };
  }
}

// At collection time, so a failed install can name the skip.
const claude = onPglite ? await installClaudeCode() : { reason: 'runs on the pglite project only' };
const installed = 'bin' in claude ? claude : undefined;
const skipReason = 'reason' in claude ? claude.reason : '';
if (onPglite && !installed) {
  process.stderr.write(`claude-code.test.ts: SKIPPED — npm could not install @anthropic-ai/claude-code: ${skipReason}\n`);
}

describe.runIf(onPglite)('Claude Code as the MCP host of the installed sess-mcp', () => {
  let server: AppServer;
  let mine: TestWorkspace;
  let work: string;
  let sessMcp: string;
  let home: string;
  let projectDir: string;

  beforeAll(async () => {
    if (!installed) return;
    server = await startAppServer();
    mine = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    work = await mkdtemp(join(tmpdir(), 'sess-mcp-claude-'));
    const dist = join(work, 'dist');
    await run(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--out', dist], { cwd: packageDir, ...BIG });
    const { stdout } = await run('npm', ['pack', dist, '--json', '--pack-destination', work], { cwd: packageDir, ...BIG });
    const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string }];
    const install = join(work, 'install');
    await mkdir(install);
    await writeFile(join(install, 'package.json'), JSON.stringify({ name: 'host', private: true }));
    await run('npm', ['install', join(work, filename), '--no-audit', '--no-fund', '--prefer-offline'], { cwd: install, ...BIG });
    sessMcp = join(install, 'node_modules', '.bin', 'sess-mcp');
    home = join(work, 'home');
    projectDir = join(work, 'project');
    await mkdir(home);
    await mkdir(projectDir);
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
    if (installed) await rm(installed.prefix, { recursive: true, force: true });
  });

  /** Runs `claude` in the project with the temp HOME and, as the README says, the key in the terminal's environment. */
  const claudeCli = (args: string[]) =>
    run(installed!.bin, args, {
      cwd: projectDir,
      timeout: 120_000,
      ...BIG,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        SESS_API_KEY: mine.apiKey,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      },
    });

  it.skipIf(!installed)(
    `claude mcp add --scope local sess -- <installed sess-mcp>, then claude mcp list: connected${installed ? '' : ` (SKIPPED: npm could not install @anthropic-ai/claude-code: ${skipReason})`}`,
    async () => {
      const stateDir = join(work, 'state');
      const added = await claudeCli([
        'mcp',
        'add',
        '--scope',
        'local',
        'sess',
        '-e',
        `SESS_API_ORIGIN=${server.url}`,
        '-e',
        `SESS_MCP_STATE_DIR=${stateDir}`,
        '--',
        sessMcp,
      ]);
      expect(added.stdout).toContain('Added stdio MCP server sess');

      const listed = await claudeCli(['mcp', 'list']);
      const line = listed.stdout.split('\n').find((l) => l.startsWith('sess:'));
      expect(line, listed.stdout).toBeDefined();
      expect(line).toContain(sessMcp);
      expect(line).toMatch(/[✓✔] Connected\s*$/);

      // The key went to the server through the environment, never into Claude Code's configuration.
      const config = await readFile(join(home, '.claude.json'), 'utf8');
      expect(config).toContain(sessMcp);
      expect(config).not.toContain(mine.apiKey);
    },
    180_000,
  );
});
