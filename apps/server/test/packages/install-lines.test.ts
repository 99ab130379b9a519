/*
 * The install lines a Sess server gives, run as a new user runs them (issue 35): the server packs
 * its client packages (scripts/build-packages.mjs, as `npm start` does) and serves them at
 * /packages; the test reads the lines off its home page and runs each from an empty directory
 * with an empty npm cache and an empty HOME, the packages' dependencies coming from the registry:
 *
 *   - `SESS_API_ORIGIN=… npx -y <server>/packages/sess-mcp-<hash>.tgz`, spawned by the MCP SDK's
 *     stdio client as a host spawns it: sess_ask, the person answers on the page, sess_response
 *     returns the answer verified, with its receipt;
 *   - `npm install <server>/packages/sess-client-<hash>.tgz`, then a script of the client's own
 *     that creates a form, waits for the answer and verifies its receipt;
 *   - the OpenClaw lines (download, `openclaw plugins install npm-pack:…`, `openclaw sess setup`),
 *     run by bash in a fresh OpenClaw home with openclaw-host's real OpenClaw, which then lists
 *     the plugin, enabled.
 *
 * The server is plain http on loopback, which sess-mcp, the client and the plugin take with no
 * flag or option (as the lines a person copies give it).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { answerOnPage, createWorkspaceWithKey, onlyOn, recordSecret, type TestWorkspace, tokenOf } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOpenclawHome,
  type OpenclawHome,
  openclawInstalled,
  runOpenclaw,
} from '../../../openclaw/test/support/openclaw-host.ts';

const run = promisify(execFile);
const repoDir = fileURLToPath(new URL('../../../../', import.meta.url));
const BIG = { maxBuffer: 32 * 1024 * 1024 };

/** The text of every code block of a page, as a reader copies it (hono/jsx's entities read back). */
function codeBlocks(html: string): string[] {
  return [...html.matchAll(/<pre class="code"><code>([\s\S]*?)<\/code><\/pre>/g)].map((match) =>
    match[1]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}

/** A new user's machine: PATH only, an empty HOME (no ~/.npmrc) and an empty npm cache. */
async function freshMachine(work: string, name: string): Promise<{ dir: string; env: Record<string, string> }> {
  const root = await mkdtemp(join(work, `${name}-`));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  const cache = join(root, 'npm-cache');
  await Promise.all([mkdir(dir), mkdir(home), mkdir(cache)]);
  return {
    dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      npm_config_cache: cache,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
  };
}

/** What the client's own script does: create, print the link, wait for the answer, verify it, complete. */
const CLIENT_RUNNER = `import { createSessClient } from '@sess/client';

const client = createSessClient({
  origin: process.env.SESS_API_ORIGIN,
  apiKey: process.env.SESS_API_KEY,
});
const say = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const created = await client.sessions.create({
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
});
say({ link: created.data.humanUrl });
// The parent says when the person has answered.
await new Promise((resolve) => process.stdin.once('data', resolve));
const read = await client.sessions.wait(created.data.sessionId, { waitMs: 10000 });
const verified = await client.receipts.verifyResponse({
  response: read.data.response,
  sessionId: created.data.sessionId,
  revision: read.data.revision,
  surfaceSha256: created.data.surfaceSha256,
  workspaceId: created.workspaceId,
});
const completed = await client.sessions.complete(created.data.sessionId, {
  expected_revision: verified.revision,
  response_event_id: verified.eventId,
});
say({ state: read.data.state, actionId: verified.actionId, values: verified.values, kid: verified.kid, completed: completed.data.state });
process.exit(0);
`;

describe.runIf(onlyOn('server: the install lines of the served packages'))(
  'the install lines a server gives, run from an empty directory',
  () => {
    let work: string;
    let server: AppServer;
    let mine: TestWorkspace;
    let blocks: string[];

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'sess-install-lines-'));
      const packagesDir = join(work, 'packages');
      await run(process.execPath, ['scripts/build-packages.mjs', '--out', packagesDir], { cwd: repoDir, ...BIG });
      server = await startAppServer({ env: { SESS_PACKAGES_DIR: packagesDir } });
      mine = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
      blocks = codeBlocks(await (await fetch(`${server.url}/`)).text());
    }, 600_000);

    afterAll(async () => {
      await server?.close();
      if (work) await rm(work, { recursive: true, force: true });
    });

    /** The one code block of the home page that `pattern` matches. */
    const block = (pattern: RegExp) => {
      const found = blocks.filter((text) => pattern.test(text));
      expect(found, blocks.join('\n---\n')).toHaveLength(1);
      return found[0]!;
    };

    it('sess-mcp: `npx -y <served tarball>` serves the tools; sess_ask, an answer on the page, sess_response verified with its receipt', async () => {
      const line = block(/npx -y http/);
      const [, origin, tarball] = /^SESS_API_ORIGIN=(\S+) npx -y (\S+)$/.exec(line) ?? [];
      expect(origin).toBe(server.url);
      expect(tarball).toMatch(new RegExp(`^${server.url}/packages/sess-mcp-[0-9a-f]{12}\\.tgz$`));
      const machine = await freshMachine(work, 'npx');
      const transport = new StdioClientTransport({
        command: 'npx',
        args: ['-y', tarball!],
        cwd: machine.dir,
        env: {
          ...machine.env,
          SESS_API_ORIGIN: origin!,
          SESS_API_KEY: mine.apiKey,
          SESS_MCP_STATE_DIR: join(machine.dir, 'state'),
        },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const client = new Client({ name: 'install-lines-test', version: '1.0.0' });
      // The first call installs the package and its dependencies from the registry.
      await client.connect(transport, { timeout: 300_000 });
      try {
        const asked = await client.callTool({
          name: 'sess_ask',
          arguments: {
            question: 'Which day suits a call?',
            fields: [{ name: 'day', label: 'Day', type: 'choice', options: ['Monday', 'Tuesday'] }],
          },
        });
        expect(asked.isError, JSON.stringify(asked.structuredContent)).toBeFalsy();
        const created = (asked.structuredContent as { interaction: { handle: string; humanUrl: string; state: string } })
          .interaction;
        expect(created.state).toBe('waiting');
        recordSecret(created.humanUrl, 'link');
        recordSecret(tokenOf(created.humanUrl), 'link');

        expect(await answerOnPage(created.humanUrl, { day: 'Tuesday' })).toBe(303);
        const read = await client.callTool({
          name: 'sess_response',
          arguments: { handle: created.handle, revision: 1, wait_ms: 10_000 },
        });
        expect(read.isError, JSON.stringify(read.structuredContent)).toBeFalsy();
        const answered = (read.structuredContent as { interaction: { state: string; response: Record<string, unknown> } })
          .interaction;
        expect(answered.state).toBe('answered');
        expect(answered.response).toMatchObject({ verified: true, values: { day: 'Tuesday' } });
        // The receipt it was verified with: a compact JWS.
        expect(answered.response.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      } finally {
        await client.close();
      }
      expect(stderr).not.toContain(mine.apiKey);
      // npx installed the served tarball into the empty cache: nothing came from elsewhere for it.
      expect(await readdir(join(machine.env.npm_config_cache!, '_npx'))).toHaveLength(1);
    }, 600_000);

    it('@sess/client: `npm install <served tarball>`, then a script creates a form, gets the answer and verifies its receipt', async () => {
      const line = block(/^npm install http/);
      const [, tarball] = /^npm install (\S+)$/.exec(line) ?? [];
      expect(tarball).toMatch(new RegExp(`^${server.url}/packages/sess-client-[0-9a-f]{12}\\.tgz$`));
      const machine = await freshMachine(work, 'client');
      await writeFile(join(machine.dir, 'package.json'), JSON.stringify({ name: 'my-agent', private: true, type: 'module' }));
      await run('npm', ['install', tarball!], { cwd: machine.dir, env: machine.env, ...BIG });
      await writeFile(join(machine.dir, 'ask.mjs'), CLIENT_RUNNER);

      const child: ChildProcess = spawn(process.execPath, ['ask.mjs'], {
        cwd: machine.dir,
        env: { ...machine.env, SESS_API_ORIGIN: server.url, SESS_API_KEY: mine.apiKey },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const messages: Array<Record<string, unknown>> = [];
      for await (const text of createInterface({ input: child.stdout! })) {
        const message = JSON.parse(text) as Record<string, unknown>;
        messages.push(message);
        if (typeof message.link === 'string') {
          recordSecret(message.link, 'link');
          recordSecret(tokenOf(message.link), 'link');
          expect(await answerOnPage(message.link, { day: 'tue' }, 'send')).toBe(303);
          child.stdin!.write('answered\n');
        }
      }
      expect(stderr).toBe('');
      expect(await exited).toBe(0);
      expect(messages.at(-1)).toMatchObject({
        state: 'answered',
        actionId: 'send',
        values: { day: 'tue' },
        kid: expect.stringMatching(/^sk_/),
        completed: 'completed',
      });
    }, 600_000);

    describe.runIf(openclawInstalled)('OpenClaw (openclaw-host)', () => {
      let home: OpenclawHome;
      afterAll(async () => {
        await home?.close();
      });

      it('the download and `openclaw plugins install npm-pack:` lines install the served plugin; OpenClaw lists it, enabled', async () => {
        const lines = block(/openclaw plugins install npm-pack:/);
        expect(lines).toMatch(
          new RegExp(`^curl -fsSL -o sess-openclaw\\.tgz ${server.url}/packages/sess-openclaw-[0-9a-f]{12}\\.tgz\\n`),
        );
        home = await createOpenclawHome();
        const cache = await mkdtemp(join(work, 'openclaw-npm-cache-'));
        const env = { ...home.env, npm_config_cache: cache };
        // The lines as the page gives them, one after another, in the OpenClaw user's home.
        const ran = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
          const child = spawn('bash', ['-e', '-c', lines], { cwd: home.home, env, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk) => (output += String(chunk)));
          child.stderr.on('data', (chunk) => (output += String(chunk)));
          child.on('error', reject);
          child.on('close', (code) => resolve({ code, output }));
        });
        expect(ran.output).toContain('Installed plugin: sess');
        expect(ran.code, ran.output).toBe(0);

        const listed = await runOpenclaw(['plugins', 'list', '--json'], env);
        expect(listed.code, listed.stdout + listed.stderr).toBe(0);
        const inventory = JSON.parse(listed.stdout.slice(listed.stdout.indexOf('{'))) as {
          plugins: Array<Record<string, unknown>>;
        };
        expect(inventory.plugins.find((plugin) => plugin.id === 'sess')).toMatchObject({ id: 'sess', enabled: true });
      }, 600_000);
    });
  },
);
