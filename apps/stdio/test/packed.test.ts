/*
 * @sess.si/mcp installed as a user installs it: the build writes the package as published into
 * dist/, `npm pack ./dist` packs it, and the tarball goes into an empty temp project (its
 * dependencies from the registry or npm's cache). Then a full round runs through that installed
 * `sess-mcp` binary, spawned by the SDK client's stdio transport as a host spawns it, against the
 * real app on loopback; and a tiny consumer of `@sess.si/mcp/http` is type-checked with the
 * repository's TypeScript 7 (skipLibCheck off) and imported by node.
 *
 * Runs on the pglite project only: it tests the package and its build, not the database; the
 * round's database work is covered on both drivers by round.test.ts, and building, packing and
 * installing twice would only double the slowest test of the suite.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TOOL_NAMES } from '@sess/contract';
import {
  answerOnPage,
  createWorkspaceWithKey,
  onlyOn,
  recordSecret,
  samplePushInteraction,
  sampleSurface,
  type TestWorkspace,
  tokenOf,
} from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const repoDir = dirname(dirname(packageDir));
const BIG = { maxBuffer: 32 * 1024 * 1024 };

/** What the published package's files must be: the three bundles, two declaration files, README, manifest. */
const PACKED_FILES = ['README.md', 'http.d.ts', 'http.js', 'index.d.ts', 'index.js', 'package.json', 'sess-mcp.js'];

/**
 * A hosting runtime's smallest composition, strict: the option and store types must be precise (an
 * `any` would make the expect-errors fail), and the declarations are read with skipLibCheck off.
 */
const CONSUMER_TS = `import {
  createSessMcpHttpHandler,
  type HandleStore,
  type SessMcpHttpHandler,
  type SessMcpHttpHandlerOptions,
  type SessPrincipal,
  type TaskStore,
} from '@sess.si/mcp/http';

declare const store: HandleStore;
declare const tasks: TaskStore;

const principal: SessPrincipal = {
  workspaceId: 'ws_1',
  principalId: 'usr_1',
  clientId: 'cli_1',
  grantId: 'grt_1',
  grantGeneration: 1,
  scopes: ['sess:interact'],
};

const options: SessMcpHttpHandlerOptions = {
  authenticate: ({ headers }) => (headers.get('authorization') === 'Bearer toy' ? principal : undefined),
  handleStore: () => store,
  allowedHosts: ['mcp.example.com'],
  requiredScopes: ['sess:interact'],
  resourceMetadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
  logger: console,
  tasks,
};

export const handler: SessMcpHttpHandler = createSessMcpHttpHandler(options);
export const served: Promise<Response> = handler.fetch(new Request('https://mcp.example.com/mcp', { method: 'POST' }));

// @ts-expect-error allowedHosts is required: the Host allowlist is the DNS-rebinding defence
createSessMcpHttpHandler({ authenticate: () => undefined, handleStore: () => store, resourceMetadataUrl: 'x' });
// @ts-expect-error a principal's grant generation is a number
export const wrong: SessPrincipal = { ...principal, grantGeneration: '1' };
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    // The ./http declarations name node:http's IncomingMessage (the Node face's body source).
    types: ['node'],
    noEmit: true,
    skipLibCheck: false,
  },
  files: ['consumer.ts'],
};

/** PATH and HOME only, then ours: the installed binary gets nothing of the test runner's. */
function bareEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

const onDriver = onlyOn('stdio: the packed package in an empty project');
describe.runIf(onDriver)('@sess.si/mcp packed and installed in an empty project', () => {
  let server: AppServer;
  let mine: TestWorkspace;
  let work: string;
  let project: string;
  let packed: { name: string; filename: string; files: Array<{ path: string }> };
  const secrets: string[] = [];

  beforeAll(async () => {
    server = await startAppServer();
    mine = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    secrets.push(mine.apiKey);
    work = await mkdtemp(join(tmpdir(), 'sess-mcp-packed-'));
    // The build writes the published package (its own package.json included) as `npm run pack:dist`
    // does before `npm pack ./dist`; here into this test's own directory, since other tests build too.
    const dist = join(work, 'dist');
    await run(process.execPath, [join(packageDir, 'scripts', 'build.mjs'), '--out', dist], { cwd: packageDir, ...BIG });
    const { stdout } = await run('npm', ['pack', dist, '--json', '--pack-destination', work], { cwd: packageDir, ...BIG });
    [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [typeof packed];
    project = join(work, 'project');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // @types/node beside it, as any TypeScript project on Node has it.
    await run('npm', ['install', join(work, packed.filename), '@types/node@^20', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
      ...BIG,
    });
    await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs the bin, the two bundles with their declarations and the README; depends only on what the bundles import', async () => {
    expect(packed.name).toBe('@sess.si/mcp');
    expect(packed.files.map((f) => f.path).sort()).toEqual(PACKED_FILES);
    const installedDir = join(project, 'node_modules', '@sess.si', 'mcp');
    const installed = JSON.parse(await readFile(join(installedDir, 'package.json'), 'utf8'));
    expect(installed.bin).toEqual({ 'sess-mcp': './sess-mcp.js' });
    expect(Object.keys(installed.exports).sort()).toEqual(['.', './http', './package.json']);
    expect(installed.private).toBeUndefined();
    expect(installed.devDependencies).toBeUndefined();
    // Exactly the packages the three bundles import, and nothing of ours.
    const imported = new Set<string>();
    for (const file of ['sess-mcp.js', 'index.js', 'http.js']) {
      const source = await readFile(join(installedDir, file), 'utf8');
      for (const [, id] of source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/gm)) {
        if (!id!.startsWith('node:') && !id!.startsWith('.'))
          imported.add(
            id!
              .split('/')
              .slice(0, id!.startsWith('@') ? 2 : 1)
              .join('/'),
          );
      }
      expect(source).not.toMatch(/from\s*['"]@sess\//);
    }
    expect(Object.keys(installed.dependencies).sort()).toEqual([...imported].sort());
    expect(Object.keys(installed.dependencies)).toContain('@modelcontextprotocol/server');
    const bin = await readFile(join(installedDir, 'sess-mcp.js'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
    await access(join(project, 'node_modules', '.bin', 'sess-mcp'));
    expect((await readdir(join(project, 'node_modules'))).filter((name) => name.startsWith('@sess'))).toEqual(['@sess.si']);
  });

  it('sess-mcp --help runs from the installed bin', async () => {
    const { stdout } = await run(join(project, 'node_modules', '.bin', 'sess-mcp'), ['--help'], { env: bareEnv({}) });
    expect(stdout).toContain('sess-mcp doctor');
  });

  it('@sess.si/mcp/http: a strict consumer type-checks with TypeScript 7, and node imports it', async () => {
    const tsc = join(repoDir, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => ({ code: 0, output: '' }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code ?? 1,
        output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      }),
    );
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const http = await import('@sess.si/mcp/http'); const root = await import('@sess.si/mcp'); " +
          'console.log(JSON.stringify([typeof http.createSessMcpHttpHandler, http.DEFAULT_MAX_BODY_BYTES, typeof root.main]));',
      ],
      { cwd: project, env: bareEnv({}) },
    );
    expect(JSON.parse(stdout)).toEqual(['function', 256 * 1024, 'function']);
  });

  it('a full round through the installed sess-mcp: request, answer on the page, verified, publish, answer, complete', async () => {
    const stateDir = await mkdtemp(join(work, 'state-'));
    const transport = new StdioClientTransport({
      command: join(project, 'node_modules', '.bin', 'sess-mcp'),
      args: [],
      cwd: project,
      // The key reaches the server by its environment only, never by argv.
      env: bareEnv({
        SESS_API_KEY: mine.apiKey,
        SESS_API_ORIGIN: server.url,
        SESS_MCP_STATE_DIR: stateDir,
      }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const client = new Client({ name: 'packed-test', version: '1.0.0' });
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
      return (result.structuredContent as { interaction: Record<string, unknown> & { handle: string; state: string } })
        .interaction;
    };
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);

      const created = await call('sess_request', { interaction: sampleSurface() });
      expect(created).toMatchObject({ state: 'waiting', revision: 1 });
      const link = created.humanUrl as string;
      secrets.push(link, tokenOf(link));
      recordSecret(link, 'link');
      recordSecret(tokenOf(link), 'link');

      expect(await answerOnPage(link, { message: 'Greet users by their first name' }, 'approve')).toBe(303);
      const answered = await call('sess_response', { handle: created.handle, revision: 1, wait_ms: 10_000 });
      expect(answered).toMatchObject({
        state: 'answered',
        response: { verified: true, actionId: 'approve', values: { message: 'Greet users by their first name' } },
      });
      const firstEvent = (answered.response as { eventId: string }).eventId;

      const published = await call('sess_publish', {
        handle: created.handle,
        expected_revision: 1,
        response_event_id: firstEvent,
        interaction: samplePushInteraction(),
      });
      expect(published).toMatchObject({ state: 'waiting', revision: 2 });

      expect(await answerOnPage(link, {}, 'push')).toBe(303);
      const second = await call('sess_response', { handle: created.handle, revision: 2, wait_ms: 10_000 });
      expect(second).toMatchObject({ state: 'answered', response: { verified: true, actionId: 'push' } });

      const completed = await call('sess_complete', {
        handle: created.handle,
        expected_revision: 2,
        response_event_id: (second.response as { eventId: string }).eventId,
      });
      expect(completed.state).toBe('completed');
      // The record the installed server keeps on disk, in the state directory it was given.
      const handles = await readdir(join(stateDir, 'profiles', 'default', 'handles'));
      expect(handles).toContain(`${created.handle}.json`);
    } finally {
      await client.close();
    }
    // The person saw the answer land: the Session is completed on the server.
    const sessions = await fetch(`${server.url}/v1/sessions`, { headers: { authorization: `Bearer ${mine.apiKey}` } });
    expect(((await sessions.json()) as { sessions: Array<{ status: string }> }).sessions).toMatchObject([
      { status: 'completed' },
    ]);
    expect(secrets.filter((secret) => stderr.includes(secret))).toEqual([]);
  }, 120_000);
});
