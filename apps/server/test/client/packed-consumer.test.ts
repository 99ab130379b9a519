/*
 * The package as a consumer gets it: build, `npm pack`, install the tarball into an empty
 * project (jose and zod from the registry), type-check a strict NodeNext consumer against the
 * bundled declarations with the repository's TypeScript, and run examples/own-agent.mjs's handler
 * in a child `node` process against the real app, fed a literal tool_use block, while a person
 * answers on the page. Runs on the pglite project only: it tests the package and its build, not
 * the database, and packing and installing twice would only double a slow test.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { answerOnPage, onlyOn, type TestWorkspace } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientHarness, recordLink, startClientHarness } from './support/harness.ts';

const run = promisify(execFile);
const repoDir = fileURLToPath(new URL('../../../../', import.meta.url));
/** The package that is built, packed and installed: packages/host-free/client. */
const packageDir = join(repoDir, 'packages', 'host-free', 'client');

/** A strict consumer: the API's types must be precise (an `any` would make the expect-errors fail). */
const CONSUMER_TS = `import {
  createSessClient,
  isSessClientError,
  SESS_CLIENT_ERROR_KINDS,
  type SessClient,
  SessClientError,
  type SessClientErrorKind,
  type SessionView,
  type VerifiedResponse,
} from '@sess/client';

const client: SessClient = createSessClient({ origin: 'https://api.sess.si', apiKey: 'sess_example' });

export async function round(): Promise<VerifiedResponse | SessionView['state']> {
  const created = await client.sessions.create(
    {
      interaction: {
        mode: 'interactive',
        title: 'Which day suits a call?',
        source: {
          kind: 'sess_surface',
          components: [{ type: 'field', name: 'day', label: 'Day', schema: { type: 'string', enum: ['mon', 'tue'] } }],
        },
        actions: [{ id: 'send', label: 'Send', intent: 'submit' }],
      },
      expires_in: 3600,
    },
    { idempotencyKey: 'order-1', signal: AbortSignal.timeout(5_000) },
  );
  const key: string = created.idempotencyKey;
  const link: string = created.data.humanUrl;
  void key;
  void link;
  const read = await client.sessions.wait(created.data.sessionId, { waitMs: 60_000 });
  // @ts-expect-error state is a union of the session states, not any string
  const wrong: 'nope' = read.data.state;
  void wrong;
  if (read.data.state !== 'answered' || !read.data.response) return read.data.state;
  const verified = await client.receipts.verifyResponse({
    response: read.data.response,
    sessionId: created.data.sessionId,
    revision: read.data.revision,
    surfaceSha256: created.data.surfaceSha256,
    workspaceId: created.workspaceId,
  });
  await client.sessions.complete(created.data.sessionId, {
    expected_revision: verified.revision,
    response_event_id: verified.eventId,
  });
  // @ts-expect-error complete needs the answer's event
  await client.sessions.complete(created.data.sessionId, { expected_revision: 1 });
  return verified;
}

export function describeFailure(error: unknown): string {
  if (error instanceof SessClientError && error.kind === 'api') return \`\${error.code}: \${error.field ?? ''}\`;
  if (isSessClientError(error, 'unknown_outcome')) return \`repeat with \${error.idempotencyKey}\`;
  const kinds: readonly SessClientErrorKind[] = SESS_CLIENT_ERROR_KINDS;
  // @ts-expect-error not a kind
  const notAKind: SessClientErrorKind = 'network';
  return kinds.join() + notAKind;
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    types: [],
    noEmit: true,
    // Our declarations are checked as a consumer's compiler reads them, with zod's and jose's.
    skipLibCheck: false,
  },
  files: ['consumer.ts'],
};

/** The runner: the example's handler on one literal tool_use block; the link goes to the parent on stdout. */
const RUNNER_MJS = `import { createSessClient, isSessClientError, SessClientError } from '@sess/client';
import { askPersonTool, handleAskPerson } from './own-agent.mjs';

const client = createSessClient({
  origin: process.env.SESS_ORIGIN,
  apiKey: process.env.SESS_API_KEY,
});
const say = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const toolUse = {
  type: 'tool_use',
  id: 'toolu_01A09q90qw90lq917835lq9',
  name: askPersonTool.name,
  input: { question: 'Which day suits a call?', details: 'Thirty minutes, afternoon.', options: ['Monday', 'Tuesday'] },
};
const result = await handleAskPerson(client, toolUse, { showLink: (url) => say({ link: url }), waitMs: 60_000 });
let missing;
try {
  await client.sessions.read('ses_aaaaaaaaaaaaaaaaaaaaaaaaaa');
} catch (error) {
  missing = { instance: error instanceof SessClientError, is: isSessClientError(error, 'api'), kind: error.kind, code: error.code };
}
say({ result, missing, tool: askPersonTool.name });
`;

describe.runIf(onlyOn('client: the packed package in an empty project'))('the packed package in an empty project', () => {
  let h: ClientHarness;
  let mine: TestWorkspace;
  let work: string;
  let project: string;
  let packed: { files: Array<{ path: string }> };

  beforeAll(async () => {
    h = await startClientHarness();
    mine = await h.workspace();
    work = await mkdtemp(join(tmpdir(), 'sess-client-packed-'));
    // The build writes the published package into dist/ (its own package.json included), as
    // `npm run pack:dist` does before `npm pack ./dist`.
    await run(process.execPath, [join(packageDir, 'scripts', 'build.mjs')], { cwd: packageDir, maxBuffer: 16 * 1024 * 1024 });
    const { stdout } = await run('npm', ['pack', './dist', '--json', '--pack-destination', work], {
      cwd: packageDir,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string; files: Array<{ path: string }> }];
    packed = info;
    project = join(work, 'project');
    await run('mkdir', ['-p', project]);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', join(work, info.filename), '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
    });
    await copyFile(join(packageDir, 'examples', 'own-agent.mjs'), join(project, 'own-agent.mjs'));
    await writeFile(join(project, 'runner.mjs'), RUNNER_MJS);
    await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  }, 300_000);

  afterAll(async () => {
    await h?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs the bundle, its declarations and the README, and installs only jose and zod beside it (and needs only node:crypto of Node)', async () => {
    expect(packed.files.map((f) => f.path).sort()).toEqual(['README.md', 'index.d.ts', 'index.js', 'package.json']);
    const installed = JSON.parse(await readFile(join(project, 'node_modules/@sess/client/package.json'), 'utf8'));
    expect(Object.keys(installed.dependencies).sort()).toEqual(['jose', 'zod']);
    expect((await readdir(join(project, 'node_modules'))).filter((name) => !name.startsWith('.')).sort()).toEqual([
      '@sess',
      'jose',
      'zod',
    ]);
    const bundle = await readFile(join(project, 'node_modules/@sess/client/index.js'), 'utf8');
    const imports = [...bundle.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    // Receipts are signed and checked with node:crypto (the package is for Node >= 20, its engines say so).
    expect(new Set(imports)).toEqual(new Set(['jose', 'node:crypto', 'zod']));
  });

  it("the declarations type-check in a strict NodeNext project with the repository's tsc", async () => {
    // node_modules/.bin/tsc, and typescript's own bin: today they differ (.bin/tsc is the 6.x that
    // @typescript/typescript6 brings for rollup-plugin-dts; the typescript package is 7.x, tsgo).
    const compilers = [
      [join(repoDir, 'node_modules', '.bin', 'tsc')],
      [process.execPath, join(repoDir, 'node_modules', 'typescript', 'bin', 'tsc')],
    ];
    for (const [command, ...prefix] of compilers) {
      const result = await run(command!, [...prefix, '-p', 'tsconfig.json'], { cwd: project }).then(
        () => ({ code: 0, output: '' }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? 1,
          output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
        }),
      );
      expect(result.output).toBe('');
      expect(result.code).toBe(0);
    }
  }, 180_000);

  it("runs the example's tool handler in a child node process: link, answer on the page, verified tool result", async () => {
    const child: ChildProcess = spawn(process.execPath, ['runner.mjs'], {
      cwd: project,
      // The key reaches the child by its environment only, never by argv or output.
      env: { PATH: process.env.PATH ?? '', SESS_ORIGIN: h.server.url, SESS_API_KEY: mine.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const messages: Array<Record<string, unknown>> = [];
    for await (const line of createInterface({ input: child.stdout! })) {
      const message = JSON.parse(line) as Record<string, unknown>;
      messages.push(message);
      if (typeof message.link === 'string') {
        recordLink(message.link);
        expect(message.link.startsWith(`${h.server.url}/s/`)).toBe(true);
        // The person picks Tuesday on their phone.
        expect(await answerOnPage(message.link, { answer: 'Tuesday' }, 'send')).toBe(303);
      }
    }
    const code = await exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const last = messages.at(-1)!;
    expect(last.result).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01A09q90qw90lq917835lq9',
      content: JSON.stringify({ state: 'answered', verified: true, answer: 'Tuesday' }),
    });
    expect(last.missing).toEqual({ instance: true, is: true, kind: 'api', code: 'NOT_FOUND' });
    expect(last.tool).toBe('ask_person');

    // The handler completed the form: the person's page says the agent has the answer.
    const listed = await h.client(mine).sessions.list();
    expect(listed.data.sessions).toHaveLength(1);
    expect(listed.data.sessions[0]).toMatchObject({ status: 'completed', title: 'Which day suits a call?' });
  }, 120_000);
});
