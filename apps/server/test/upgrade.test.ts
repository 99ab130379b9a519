import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { queryRows } from '@sess/db';
import { createLocalKeySet, verifyReceipt } from '@sess/receipts';
import {
  answerOnPage,
  childLogLevel,
  createTestDatabase,
  freePort,
  onlyOn,
  recordSecret,
  recordSecretLeaves,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, runCli, startCli } from './support/cli-process.ts';
import { fetchVia } from './support/fetch-via.ts';
import { findUpgradeUnderTest, journalTags, type PreviousRelease, preparePreviousRelease } from './support/previous-release.ts';

/*
 * An upgrade that loses nothing (issue 35, docs/migrations.md): the previous release — the commit
 * before the one that added the newest migration, unpacked from git and built with its own
 * scripts — runs on a fresh PostgreSQL database; its CLI makes the account and the API key, its
 * server takes forms over /v1 and /mcp and holds long waits on them. Then this checkout starts on
 * the same database (its migrations run under the running old one), the person answers every
 * form through the new one, and every wait parked on the old one (/v1, sess_response, the answer
 * page's) wakes with that answer across the database's bus. Old code also reads a form the new code wrote and writes one into the
 * migrated schema. The new one completes everything; the old one stops; and nothing is lost or
 * half-written: one answer per form, every receipt verifies, every counter matches its rows, each
 * migration applied once.
 *
 * PostgreSQL only: two processes on one database. With no git history (an archive, a shallow
 * clone) there is no previous release to run: the test is skipped and says why.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const onPostgres = onlyOn('server: an upgrade from the previous release');
const upgrade = findUpgradeUnderTest(ROOT);
/** `npm ci` the old tree even when this checkout's node_modules would do (to time that path). */
const FORCE_INSTALL = process.env.SESS_UPGRADE_TEST_NPM_CI === '1';
const WAIT_MS = 45_000;

type V1View = {
  sessionId: string;
  state: string;
  revision: number;
  surfaceSha256: string;
  humanUrl?: string;
  response: { eventId: string; values: { message?: string }; receipt: string } | null;
};
type McpView = {
  handle: string;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; values: { message?: string }; verified: boolean; receipt: string } | null;
};
/** A wait in flight on the old server, and whether it has returned yet. */
type Parked<T> = { label: string; result: Promise<T>; settled: boolean };

function park<T>(label: string, result: Promise<T>): Parked<T> {
  const parked: Parked<T> = { label, result, settled: false };
  result.then(
    () => (parked.settled = true),
    () => (parked.settled = true),
  );
  return parked;
}

describe.runIf(onPostgres)('an upgrade from the previous release, on one PostgreSQL database', () => {
  let database: TestDatabase;
  let previous: PreviousRelease | undefined;
  let newBundleDir: string | undefined;
  const processes: CliProcess[] = [];
  const clients: Client[] = [];
  let frontUrl: string;

  beforeAll(async () => {
    if (!upgrade.ok) return;
    previous = preparePreviousRelease(ROOT, upgrade.previous, { forceInstall: FORCE_INSTALL });
    newBundleDir = join(ROOT, 'dist', `upgrade-test-${process.pid}`);
    const built = spawnSync(process.execPath, ['scripts/build.mjs', '--outfile', join(newBundleDir, 'sess.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`this checkout's build failed: ${built.stderr}`);
    database = await createTestDatabase({ migrated: false });
    // The address both versions are reached at, as behind a proxy: links and receipts name it. Nothing listens there;
    // the test sends each request to the version it means.
    frontUrl = `http://127.0.0.1:${await freePort()}`;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    for (const child of processes)
      if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await Promise.all(processes.map((child) => child.exited));
    await database?.destroy();
    previous?.remove();
    if (newBundleDir) rmSync(newBundleDir, { recursive: true, force: true });
  }, 60_000);

  const env = (): Record<string, string> => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: frontUrl,
    DATABASE_URL: database.url!,
    DB_POOL_MAX: '4',
    SESS_SECRET: TEST_SECRET,
    SESS_DATA_DIR: join(previous!.dir, '.data'),
    SESS_TEST_LOOPBACK_EGRESS: '1',
    SESS_MCP_RATE_PER_IP: '0',
    SESS_MCP_RATE_PER_PRINCIPAL: '0',
    SHUTDOWN_DRAIN_MS: '0',
    LOG_LEVEL: childLogLevel('warn'),
  });
  const oldCli = () => ({ bundle: previous!.bundle, cwd: previous!.dir });
  const newCli = () => ({ bundle: join(newBundleDir!, 'sess.mjs'), cwd: ROOT });

  async function serve(release: { bundle: string; cwd: string }): Promise<{ process: CliProcess; url: string }> {
    const child = startCli(['serve'], env(), undefined, [], release);
    processes.push(child);
    const [, url] = await child.waitFor(/listening on (http:\/\/[^,]+),/, 120_000);
    return { process: child, url: url! };
  }

  async function migrationsApplied(): Promise<number[]> {
    const rows = await queryRows<{ created_at: string }>(
      database.db,
      sql`select created_at::text from drizzle.__drizzle_migrations order by id`,
    );
    return rows.map((row) => Number(row.created_at));
  }

  it('forms and waits opened on the old version are answered through the new one; every wait wakes; nothing is lost', async (context) => {
    if (!upgrade.ok) {
      process.stderr.write(`\nSKIPPED the upgrade test: ${upgrade.reason}\n`);
      context.skip(upgrade.reason);
      return;
    }
    const startedAt = performance.now();
    const release = previous!;
    const newJournal = readFileSync(join(ROOT, 'migrations/meta/_journal.json'), 'utf8');
    const oldJournal = readFileSync(join(release.dir, 'migrations/meta/_journal.json'), 'utf8');
    const newMigrations = JSON.parse(newJournal).entries as Array<{ tag: string; when: number }>;
    const oldTags = journalTags(oldJournal);
    // The previous release is this one's history: its migrations are the first of ours, the one under test is not among them,
    // and none of them was changed since it shipped (comments aside: they may explain, never alter).
    expect(newMigrations.slice(0, oldTags.length).map((entry) => entry.tag)).toEqual(oldTags);
    expect(oldTags).not.toContain(upgrade.migration);
    const statements = (text: string) => text.replace(/^[ \t]*--(?!>).*(\n|$)/gm, '').trim();
    for (const tag of oldTags)
      expect(statements(readFileSync(join(ROOT, 'migrations', `${tag}.sql`), 'utf8')), `${tag} changed after its release`).toBe(
        statements(readFileSync(join(release.dir, 'migrations', `${tag}.sql`), 'utf8')),
      );

    // The old CLI makes the account (migrating the empty database to the old schema) and the API key.
    const email = 'upgrade@test.sess.invalid';
    const password = 'upgrade test password 7c1e';
    recordSecret(password, 'password');
    const user = await runCli(['user', 'create', '--email', email], env(), `${password}\n`, oldCli());
    expect(user.code, user.stderr).toBe(0);
    const workspaceId = /with workspace (\S+)\./.exec(user.stdout)![1]!;
    const key = await runCli(['api-key', 'create', '--workspace', workspaceId, '--name', 'upgrade test'], env(), '', oldCli());
    expect(key.code, key.stderr).toBe(0);
    const apiKey = key.stdout.trim();
    recordSecret(apiKey, 'api-key');
    expect(await migrationsApplied()).toHaveLength(oldTags.length);

    const oldServer = await serve(oldCli());
    const v1 = async (base: string, path: string, init: RequestInit = {}) => {
      const response = await fetch(new URL(path, base), {
        ...init,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...init.headers },
      });
      return { status: response.status, json: (await response.json()) as V1View & { error?: unknown } };
    };
    const created: Array<{ label: string; sessionId?: string; handle?: string; humanUrl: string; message: string }> = [];
    const createOnV1 = async (base: string, label: string) => {
      const made = await v1(base, '/v1/sessions', {
        method: 'POST',
        headers: { 'idempotency-key': label },
        body: JSON.stringify({ interaction: sampleSurface(`Upgrade: ${label}?`) }),
      });
      expect(made.status, JSON.stringify(made.json)).toBe(201);
      recordSecret(made.json.humanUrl, 'link');
      recordSecret(tokenOf(made.json.humanUrl!), 'link');
      const form = { label, sessionId: made.json.sessionId, humanUrl: made.json.humanUrl!, message: `Answered ${label}` };
      created.push(form);
      return form;
    };
    const waitOnV1 = (base: string, sessionId: string) =>
      v1(base, `/v1/sessions/${sessionId}?wait_ms=${WAIT_MS}`).then((read) => read.json);

    const connect = async (base: string) => {
      const client = new Client({ name: 'upgrade-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(
        // To the version named, under the one front Host both share behind a proxy: a handle is bound to the origin it
        // was made at (the Host), so an agent keeps its handles across the upgrade only when that is the same.
        new StreamableHTTPClientTransport(new URL('/mcp', frontUrl), {
          fetch: fetchVia(base),
          requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
        }),
      );
      clients.push(client);
      return client;
    };
    const callTool = async (client: Client, name: string, args: Record<string, unknown>): Promise<McpView> => {
      const result = (await client.callTool({ name, arguments: args }, { timeout: WAIT_MS + 30_000 })) as {
        isError?: boolean;
        structuredContent: { interaction: McpView; error?: unknown };
      };
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent.error)}`);
      // This fetch is not the global one the log audit watches: what it must find in no log line is recorded here.
      recordSecret(result.structuredContent.interaction.response?.receipt, 'response-secret');
      recordSecretLeaves(result.structuredContent.interaction.response?.values, 'answer');
      return result.structuredContent.interaction;
    };

    // On the old version: forms over /v1 and over /mcp, each with a long wait parked on it (one /v1 form waits on its page, later).
    const v1Waits: Array<Parked<V1View>> = [];
    for (const n of [1, 2, 3]) {
      const form = await createOnV1(oldServer.url, `old-v1-${n}`);
      v1Waits.push(park(form.label, waitOnV1(oldServer.url, form.sessionId!)));
    }
    const watchedOnPage = await createOnV1(oldServer.url, 'old-v1-page');
    const oldMcp = await connect(oldServer.url);
    const mcpWaits: Array<Parked<McpView>> = [];
    for (const n of [1, 2]) {
      const label = `old-mcp-${n}`;
      const made = await callTool(oldMcp, 'sess_request', { interaction: sampleSurface(`Upgrade: ${label}?`) });
      recordSecret(made.humanUrl, 'link');
      recordSecret(tokenOf(made.humanUrl!), 'link');
      created.push({ label, handle: made.handle, humanUrl: made.humanUrl!, message: `Answered ${label}` });
      mcpWaits.push(park(label, callTool(oldMcp, 'sess_response', { handle: made.handle, revision: 1, wait_ms: WAIT_MS })));
    }

    // The new version starts on the same database while the old one serves: its migrations run.
    const migratingAt = performance.now();
    const newServer = await serve(newCli());
    const newStartMs = Math.round(performance.now() - migratingAt);
    expect(await migrationsApplied()).toEqual(newMigrations.map((entry) => entry.when));
    // The old version still serves, on the migrated schema: ready, and it takes a form and a wait.
    expect((await fetch(new URL('/readyz', oldServer.url))).status).toBe(200);
    const writtenByOld = await createOnV1(oldServer.url, 'old-v1-after-migration');
    v1Waits.push(park(writtenByOld.label, waitOnV1(oldServer.url, writtenByOld.sessionId!)));
    // …and a form the new version wrote, waited on by the old one.
    const writtenByNew = await createOnV1(newServer.url, 'new-v1');
    v1Waits.push(park(writtenByNew.label, waitOnV1(oldServer.url, writtenByNew.sessionId!)));
    // …and the answer page's live wait (25 s at most, so parked now rather than across the migration).
    const pageWait = park(
      watchedOnPage.label,
      fetch(new URL(`/s/${tokenOf(watchedOnPage.humanUrl)}/wait?revision=1&state=open`, oldServer.url)).then(
        async (response) => ({ status: response.status, ...((await response.json()) as { state: string; revision: number }) }),
      ),
    );
    // Nothing has answered them yet: every wait is still parked on the old version.
    expect([...v1Waits, ...mcpWaits, pageWait].filter((wait) => wait.settled).map((wait) => wait.label)).toEqual([]);

    // The person answers every form through the new version.
    for (const form of created) {
      const page = new URL(new URL(form.humanUrl).pathname, newServer.url);
      expect(await answerOnPage(page.href, { message: form.message }), form.label).toBe(303);
    }
    // Every wait parked on the old version wakes with its answer (none ran out its 45 s first).
    const messageOf = (label: string) => created.find((form) => form.label === label)!.message;
    for (const wait of v1Waits) {
      const read = await wait.result;
      expect({ label: wait.label, state: read.state, message: read.response?.values.message }).toEqual({
        label: wait.label,
        state: 'answered',
        message: messageOf(wait.label),
      });
    }
    expect(await pageWait.result).toEqual({ status: 200, state: 'answered', revision: 1 });
    for (const wait of mcpWaits) {
      const read = await wait.result;
      // verified: the old version checked the receipt the new one signed.
      expect({
        label: wait.label,
        state: read.state,
        message: read.response?.values.message,
        verified: read.response?.verified,
      }).toEqual({ label: wait.label, state: 'answered', message: messageOf(wait.label), verified: true });
    }

    // The new version finishes every form: /v1 completes, and sess_complete on the handles the old one made.
    const newMcp = await connect(newServer.url);
    const sessionIds: string[] = [];
    for (const form of created) {
      if (form.handle) {
        const read = await callTool(newMcp, 'sess_response', { handle: form.handle, revision: 1 });
        expect(read.state).toBe('answered');
        const done = await callTool(newMcp, 'sess_complete', {
          handle: form.handle,
          expected_revision: 1,
          response_event_id: read.response!.eventId,
        });
        expect(done.state, form.label).toBe('completed');
        const [row] = await queryRows<{ session_id: string }>(
          database.db,
          sql`select session_id from mcp_handles where handle = ${form.handle}`,
        );
        sessionIds.push(row!.session_id);
      } else {
        const read = await v1(newServer.url, `/v1/sessions/${form.sessionId}`);
        const done = await v1(newServer.url, `/v1/sessions/${form.sessionId}/complete`, {
          method: 'POST',
          headers: { 'if-match': '1', 'idempotency-key': `complete-${form.label}` },
          body: JSON.stringify({ response_event_id: read.json.response!.eventId }),
        });
        expect(done.json.state, `${form.label}: ${JSON.stringify(done.json)}`).toBe('completed');
        sessionIds.push(form.sessionId!);
      }
    }
    // A create retried against the new version is the one the old version made.
    const replay = await v1(newServer.url, '/v1/sessions', {
      method: 'POST',
      headers: { 'idempotency-key': 'old-v1-1' },
      body: JSON.stringify({ interaction: sampleSurface('Upgrade: old-v1-1?') }),
    });
    expect(replay.json.sessionId).toBe(created[0]!.sessionId);

    // The old version stops cleanly; the new one carries on alone.
    oldServer.process.child.kill('SIGTERM');
    expect((await oldServer.process.exited).code).toBe(0);
    expect((await fetch(new URL('/readyz', newServer.url))).status).toBe(200);

    // Every answer is there once, with a receipt that verifies against the keys the new version publishes.
    const jwks = await createLocalKeySet(await (await fetch(new URL('/.well-known/jwks.json', newServer.url))).json());
    for (const sessionId of sessionIds) {
      const read = (await v1(newServer.url, `/v1/sessions/${sessionId}`)).json;
      expect(read.state).toBe('completed');
      const verified = await verifyReceipt(read.response!.receipt, {
        keys: jwks,
        issuer: frontUrl,
        expected: { workspaceId, sessionId, revision: 1, eventId: read.response!.eventId, surfaceSha256: read.surfaceSha256 },
      });
      expect(verified.ok, `${sessionId}: ${JSON.stringify(verified)}`).toBe(true);
    }
    const [totals] = await queryRows<{ sessions: number; answers: number; answered: number; unfinished: number }>(
      database.db,
      sql`select (select count(*)::int from form_sessions) as sessions,
                 (select count(*)::int from form_answers) as answers,
                 (select count(distinct session_id)::int from form_answers) as answered,
                 (select count(*)::int from form_sessions where state <> 'completed')
                   + (select count(*)::int from mcp_handles where state <> 'completed') as unfinished`,
    );
    expect(totals).toEqual({ sessions: created.length, answers: created.length, answered: created.length, unfinished: 0 });
    // Nothing half-written: every open_counts counter equals the rows it counts (the triggers of both versions kept it).
    const drift = await queryRows(
      database.db,
      sql`select key, coalesce(c.counted, 0) as counted, coalesce(r.n, 0)::int as rows
            from open_counts c
            full join (select 'workspace:' || workspace_id as key, count(*) as n from form_sessions where state = 'open' group by 1
                       union all
                       select 'principal:' || workspace_id || ':' || principal_id, count(*) from mcp_handles
                        where sess_unfinished_handle(state) group by 1) r using (key)
           where coalesce(c.counted, 0) <> coalesce(r.n, 0)`,
    );
    expect(drift).toEqual([]);
    // Each migration applied once, by one of the two versions.
    expect(await migrationsApplied()).toEqual(newMigrations.map((entry) => entry.when));

    newServer.process.child.kill('SIGTERM');
    expect((await newServer.process.exited).code).toBe(0);
    console.info(
      `upgrade ${release.commit.slice(0, 12)} → this checkout (migration ${upgrade.migration}${upgrade.migrationCommit ? '' : ', uncommitted'}): ` +
        `previous release prepared in ${release.preparedMs} ms (${release.install}); new version started and migrated in ${newStartMs} ms; ` +
        `${created.length} forms, ${v1Waits.length + mcpWaits.length + 1} waits on the old version woken; test body ${Math.round(performance.now() - startedAt)} ms`,
    );
  }, 300_000);
});
