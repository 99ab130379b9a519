import { createApiKey } from '@sess/accounts';
import { newId } from '@sess/core';
import { queryRows } from '@sess/db';
import { createFormsRuntime, createSession, submitLinkAnswer } from '@sess/forms';
import { API_KEY_PRINCIPAL_PREFIX, createPostgresHandleStore } from '@sess/hosted';
import type { HandleBinding, HandleRecord } from '@sess/interactions';
import {
  createTestLogger,
  createTestUser,
  createTestWorkspace,
  parseHtmlForms,
  sampleSurface,
  signInTestUser,
  TEST_SECRET,
  type TestUser,
  tokenOf,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';

/*
 * /account/interactions: the person reviews the MCP interactions no tool can move on (blocked,
 * create_unknown) and retires them: the form is withdrawn, the handle ends cancelled and stops
 * counting against the 100-unfinished cap. Only their own, and those of the API keys of the
 * workspaces they own (a key has no person of its own); CSRF on the post.
 */

let server: AppServer;
let person: TestUser;
let cookie: string;
let stranger: TestUser;
const made: Record<string, HandleRecord> = {};

function bindingOf(user: TestUser): HandleBinding {
  return {
    origin: 'http://sess.test',
    workspaceId: user.workspaceId,
    principalId: user.userId,
    clientId: newId('oauthClient'),
    grantId: newId('oauthGrant'),
    grantGeneration: 1,
  };
}

function record(binding: HandleBinding, overrides: Partial<HandleRecord>): HandleRecord {
  const at = new Date().toISOString();
  return {
    ...binding,
    handle: newId('handle'),
    kind: 'interaction',
    state: 'waiting',
    version: 1,
    revision: 1,
    title: 'A question',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

async function handleRow(handle: string) {
  const [row] = await queryRows<{ state: string; blocked_reason: string | null; sealed: string | null }>(
    server.database.db,
    sql`select state, blocked_reason, sealed from mcp_handles where handle = ${handle}`,
  );
  return row;
}

async function sessionState(sessionId: string) {
  const [row] = await queryRows<{ state: string }>(
    server.database.db,
    sql`select state from form_sessions where id = ${sessionId}`,
  );
  return row?.state;
}

const get = (path: string, withCookie = true) =>
  fetch(new URL(path, server.url), { headers: withCookie ? { cookie } : {}, redirect: 'manual' });

async function retireForm(): Promise<{ csrf: string }> {
  const html = await (await get('/account/interactions')).text();
  const form = parseHtmlForms(html).find((f) => f.action === '/account/interactions/retire');
  if (!form) throw new Error('no retire form on the page');
  return { csrf: form.fields._csrf! };
}

function retire(handle: string, csrf: string) {
  return fetch(new URL('/account/interactions/retire', server.url), {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, handle }).toString(),
    redirect: 'manual',
  });
}

/** A new open form in the user's workspace, as a create through forms makes it; answered inside the agent's chat when asked. */
async function openForm(user: TestUser, answerInChat = false) {
  const runtime = createFormsRuntime({
    database: server.database,
    publicUrl: server.url,
    secret: TEST_SECRET,
    logger: createTestLogger(),
  });
  try {
    const created = await createSession({
      ctx: { runtime, workspaceId: user.workspaceId },
      input: { interaction: sampleSurface() },
    });
    if (answerInChat) {
      const answered = await submitLinkAnswer(
        runtime,
        tokenOf(created.humanUrl),
        { revision: 1, actionId: 'approve', submitted: { message: 'From the chat' } },
        { via: 'chat', principalId: user.userId },
      );
      if (!answered.ok) throw new Error('refused');
    }
    return created;
  } finally {
    await runtime.close();
  }
}

beforeAll(async () => {
  server = await startAppServer();
  const db = server.database.db;
  person = await createTestUser(db);
  stranger = await createTestUser(db);
  cookie = (await signInTestUser(db, person.userId, server.clock.now())).cookie;
  const open = await openForm(person);
  const store = createPostgresHandleStore({ db, secret: TEST_SECRET });
  const mine = store.bind(bindingOf(person));
  made.blocked = record(bindingOf(person), {
    state: 'blocked',
    blockedReason: 'mutation_rejected',
    sessionId: open.sessionId,
    title: 'Deploy <script>alert(1)</script> "now"?',
  });
  made.unknown = record(bindingOf(person), { state: 'create_unknown', title: 'Lost create' });
  made.waiting = record(bindingOf(person), { state: 'waiting', title: 'Still waiting', humanUrl: `${server.url}/s/x` });
  for (const r of [made.blocked, made.unknown, made.waiting]) await mine.insert(r);
  made.theirs = record(bindingOf(stranger), { state: 'blocked', blockedReason: 'mutation_rejected', title: 'Not yours' });
  await store.bind(bindingOf(stranger)).insert(made.theirs);
});
afterAll(() => server?.close());

describe('/account/interactions', () => {
  it('sends a visitor who is not signed in to sign in, and back here after', async () => {
    const response = await get('/account/interactions', false);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?return_to=%2Faccount%2Finteractions');
  });

  it('lists only the person’s own blocked and outcome-unknown interactions, escaped, on a strict page', async () => {
    const response = await get('/account/interactions');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await response.text();
    expect(html).toContain('Deploy &lt;script&gt;alert(1)&lt;/script&gt; &quot;now&quot;?');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('Lost create');
    expect(html).toContain('Sess refused the next step the agent sent');
    expect(html).not.toContain('Still waiting');
    expect(html).not.toContain('Not yours');
    expect(parseHtmlForms(html).filter((f) => f.action === '/account/interactions/retire')).toHaveLength(2);
    // The blocked one has a form: its timeline is linked.
    expect(html).toContain(`href="/account/interactions/${made.blocked!.sessionId}"`);
  });

  it('is linked from the account page', async () => {
    const html = await (await get('/account')).text();
    expect(html).toContain('href="/account/interactions"');
  });

  it('refuses a retire without the page’s CSRF token, changing nothing', async () => {
    const response = await retire(made.blocked!.handle, 'forged');
    expect(response.status).toBe(403);
    expect((await handleRow(made.blocked!.handle))?.state).toBe('blocked');
  });

  it('answers 404 for another person’s interaction and leaves it alone', async () => {
    const { csrf } = await retireForm();
    const response = await retire(made.theirs!.handle, csrf);
    expect(response.status).toBe(404);
    expect((await handleRow(made.theirs!.handle))?.state).toBe('blocked');
    expect((await retire(made.waiting!.handle, csrf)).status).toBe(404);
    expect((await handleRow(made.waiting!.handle))?.state).toBe('waiting');
  });

  it('retires a blocked interaction: its form is withdrawn, the handle cancelled, its place freed', async () => {
    const unfinished = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            server.database.db,
            sql`select count(*)::int as n from mcp_handles where principal_id = ${person.userId}
                 and state in ('create_intent', 'create_unknown', 'waiting', 'answered', 'blocked')`,
          )
        )[0]?.n,
      );
    expect(await unfinished()).toBe(3);
    const { csrf } = await retireForm();
    const response = await retire(made.blocked!.handle, csrf);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account/interactions?retired=1');
    expect(await handleRow(made.blocked!.handle)).toEqual({
      state: 'cancelled',
      blocked_reason: 'retired_by_owner',
      sealed: null,
    });
    expect(await sessionState(made.blocked!.sessionId!)).toBe('withdrawn');
    expect(await unfinished()).toBe(2);

    const after = await (await get('/account/interactions?retired=1')).text();
    expect(after).toContain('Retired. Its link no longer takes answers.');
    expect(after).not.toContain('Deploy &lt;script&gt;');
    // Twice is not an error that changes anything: there is nothing left to retire.
    expect((await retire(made.blocked!.handle, csrf)).status).toBe(404);
  });

  it('says so and changes nothing when the form cannot be withdrawn; a retry then works', async () => {
    const db = server.database.db;
    const open = await openForm(person);
    const stuck = record(bindingOf(person), { state: 'blocked', blockedReason: 'moved_on', sessionId: open.sessionId });
    await createPostgresHandleStore({ db, secret: TEST_SECRET }).bind(bindingOf(person)).insert(stuck);
    // Fault injection: the database refuses to change this one form.
    await db.execute(
      sql.raw(`create function refuse_withdraw() returns trigger language plpgsql as $$
               begin raise exception 'injected failure'; end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_withdraw before update on form_sessions for each row
               when (old.id = '${open.sessionId}') execute function refuse_withdraw()`),
    );
    try {
      const { csrf } = await retireForm();
      const refused = await retire(stuck.handle, csrf);
      expect(refused.status).toBe(503);
      expect(await refused.text()).toContain('Sess could not close the form just now.');
      expect((await handleRow(stuck.handle))?.state).toBe('blocked');
      expect(await sessionState(open.sessionId)).toBe('open');
    } finally {
      await db.execute(sql.raw('drop trigger refuse_withdraw on form_sessions'));
      await db.execute(sql.raw('drop function refuse_withdraw()'));
    }
    const { csrf } = await retireForm();
    expect((await retire(stuck.handle, csrf)).status).toBe(303);
    expect((await handleRow(stuck.handle))?.state).toBe('cancelled');
    expect(await sessionState(open.sessionId)).toBe('withdrawn');
  });

  it('says when the answer it stopped on was given in the chat', async () => {
    const answered = await openForm(person, true);
    const stuck = record(bindingOf(person), {
      state: 'blocked',
      blockedReason: 'moved_on',
      sessionId: answered.sessionId,
      title: 'Answered in the chat',
    });
    await createPostgresHandleStore({ db: server.database.db, secret: TEST_SECRET }).bind(bindingOf(person)).insert(stuck);
    const html = await (await get('/account/interactions')).text();
    expect(html).toContain(
      'The form moved on after the answer the agent was given, so the agent stopped. It was answered in the chat, not on the link.',
    );
    // Only that one: the others were not answered in the chat.
    expect(html.split('answered in the chat').length).toBe(2);
    const { csrf } = await retireForm();
    expect((await retire(stuck.handle, csrf)).status).toBe(303);
  });

  it('retires an interaction whose create outcome is unknown (no form to withdraw)', async () => {
    const { csrf } = await retireForm();
    expect((await retire(made.unknown!.handle, csrf)).status).toBe(303);
    expect((await handleRow(made.unknown!.handle))?.state).toBe('cancelled');
    const html = await (await get('/account/interactions')).text();
    expect(html).toContain('Nothing to review.');
  });
});

describe('interactions started with a workspace API key', () => {
  /** A handle binding of an API key of `workspaceId`, as the app's authenticator makes its principal. */
  async function keyBinding(workspaceId: string, createdBy: string, name: string): Promise<HandleBinding> {
    const made = await createApiKey({
      ctx: { db: server.database.db, now: server.clock.now },
      input: { workspaceId, name, createdBy },
    });
    const id = `${API_KEY_PRINCIPAL_PREFIX}${made.id}`;
    return { origin: 'http://sess.test', workspaceId, principalId: id, clientId: id, grantId: made.id, grantGeneration: 0 };
  }

  it('are reviewed and retired by the workspace’s owners, and by nobody else', async () => {
    const db = server.database.db;
    const store = createPostgresHandleStore({ db, secret: TEST_SECRET });
    // The person owns their own workspace, and is only a member of a team's.
    const team = await createTestWorkspace(db, { userId: person.userId, role: 'member', name: 'Shared team' });
    const ownKey = await keyBinding(person.workspaceId, person.userId, 'nightly <b>build</b>');
    const teamKey = await keyBinding(team.workspaceId, person.userId, 'team key');
    const strangerKey = await keyBinding(stranger.workspaceId, stranger.userId, 'stranger key');
    const open = await openForm(person);
    const mine = record(ownKey, {
      state: 'blocked',
      blockedReason: 'verification_failed',
      sessionId: open.sessionId,
      title: 'Key stuck',
    });
    const stillWaiting = record(ownKey, { state: 'waiting', title: 'Key waiting', humanUrl: `${server.url}/s/y` });
    const teams = record(teamKey, { state: 'create_unknown', title: 'Team key lost' });
    const strangers = record(strangerKey, { state: 'blocked', blockedReason: 'moved_on', title: 'Stranger key stuck' });
    for (const [binding, r] of [
      [ownKey, mine],
      [ownKey, stillWaiting],
      [teamKey, teams],
      [strangerKey, strangers],
    ] as const)
      await store.bind(binding).insert(r);

    const html = await (await get('/account/interactions')).text();
    expect(html).toContain('Key stuck');
    expect(html).toContain('An answer arrived whose receipt did not verify');
    // Which key started it, escaped.
    expect(html).toContain('<dt>API key</dt>');
    expect(html).toContain('nightly &lt;b&gt;build&lt;/b&gt;');
    expect(html).not.toContain('Key waiting');
    expect(html).not.toContain('Team key lost');
    expect(html).not.toContain('Stranger key stuck');
    const forms = parseHtmlForms(html).filter((f) => f.action === '/account/interactions/retire');
    expect(forms.map((f) => f.fields.handle)).toEqual([mine.handle]);

    // Not an owner there, or not theirs at all: 404, nothing changes.
    const { csrf } = await retireForm();
    for (const other of [teams, strangers, stillWaiting]) {
      expect((await retire(other.handle, csrf)).status).toBe(404);
      expect((await handleRow(other.handle))?.state).toBe(other.state);
    }

    const retired = await retire(mine.handle, csrf);
    expect(retired.status).toBe(303);
    expect(await handleRow(mine.handle)).toEqual({ state: 'cancelled', blocked_reason: 'retired_by_owner', sealed: null });
    expect(await sessionState(open.sessionId)).toBe('withdrawn');

    // The team's owner reviews the team key's interaction.
    const teamOwner = await createTestUser(db);
    await db.execute(
      sql`insert into memberships (id, workspace_id, user_id, role) values (${newId('membership')}, ${team.workspaceId}, ${teamOwner.userId}, 'owner')`,
    );
    const ownerCookie = (await signInTestUser(db, teamOwner.userId, server.clock.now())).cookie;
    const theirs = await (await fetch(new URL('/account/interactions', server.url), { headers: { cookie: ownerCookie } })).text();
    expect(theirs).toContain('Team key lost');
    expect(theirs).toContain('team key');
    expect(theirs).not.toContain('Stranger key stuck');
  });
});
