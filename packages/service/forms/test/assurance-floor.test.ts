import { newId } from '@sess/core';
import { formSessions, memberships, queryRows, users, workspaces } from '@sess/db';
import { createAsk, createSession, type FormsRuntime, prepareSession, type WorkspaceContext } from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createUser,
  createWorkspace,
  sampleAskArguments,
  sampleSurface,
  type TestDatabase,
} from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key, refusal } from '../src/test-helpers.ts';

/*
 * Who may answer a new form (issue 37): the level asked for, raised to its maker's floor (a
 * person's own for their connections, the workspace's API-key floor for its keys), and the
 * accounts it is for. Each case reads the stored row.
 */

let database: TestDatabase;
let runtime: FormsRuntime;
let workspaceId: string;
let ownerId: string;
let secondOwnerId: string;
let member: { userId: string; email: string };
let stranger: { email: string };

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = createTestFormsRuntime(database, { now: createTestClock().now });
  ({ workspaceId } = await createWorkspace(database.db, { plan: 'pro' }));
  ({ userId: ownerId } = await createUser(database.db, { workspaceId }));
  ({ userId: secondOwnerId } = await createUser(database.db, { workspaceId }));
  member = await createUser(database.db, { email: `Member-${newId('user')}@Example.com` });
  await database.db.insert(memberships).values({ id: newId('membership'), workspaceId, userId: member.userId, role: 'member' });
  // A member of another workspace only.
  const other = await createWorkspace(database.db);
  stranger = await createUser(database.db, { workspaceId: other.workspaceId });
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

const asPerson = (userId: string): WorkspaceContext => ({ runtime, workspaceId, madeBy: { kind: 'person', userId } });
const asApiKey = (): WorkspaceContext => ({ runtime, workspaceId, madeBy: { kind: 'api_key' } });

async function stored(sessionId: string) {
  const [row] = await database.db
    .select({ assurance: formSessions.assurance, forUserIds: formSessions.forUserIds })
    .from(formSessions)
    .where(eq(formSessions.id, sessionId));
  return row;
}

async function setPersonFloor(userId: string, floor: 'link' | 'account') {
  await database.db.update(users).set({ assuranceFloor: floor }).where(eq(users.id, userId));
}

async function setKeyFloor(floor: 'link' | 'account') {
  await database.db.update(workspaces).set({ apiKeyAssuranceFloor: floor }).where(eq(workspaces.id, workspaceId));
}

async function sessionCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`,
  );
  return Number(row?.n);
}

describe("a person's own connection", () => {
  it('asks link by default; account when asked, for that person', async () => {
    await setPersonFloor(ownerId, 'link');
    const plain = await createSession({ ctx: asPerson(ownerId), input: { interaction: sampleSurface() } });
    expect(plain.assurance).toBe('link');
    expect(await stored(plain.sessionId)).toEqual({ assurance: 'link', forUserIds: null });

    const signedIn = await createSession({
      ctx: asPerson(ownerId),
      input: { interaction: sampleSurface(), assurance: 'account' },
    });
    expect(signedIn.assurance).toBe('account');
    expect(await stored(signedIn.sessionId)).toEqual({ assurance: 'account', forUserIds: [ownerId] });
  });

  it("the person's floor beats the agent's link, with no error; prepareSession (the /mcp path) too", async () => {
    await setPersonFloor(member.userId, 'account');
    for (const input of [{ interaction: sampleSurface() }, { interaction: sampleSurface(), assurance: 'link' }]) {
      const created = await createSession({ ctx: asPerson(member.userId), input });
      expect(created.assurance).toBe('account');
      expect(await stored(created.sessionId)).toEqual({ assurance: 'account', forUserIds: [member.userId] });
    }
    const prepared = await prepareSession({ ctx: asPerson(member.userId), args: { interaction: sampleSurface() } });
    const created = await prepared.store();
    expect(created.assurance).toBe('account');
    expect(await stored(created.sessionId)).toEqual({ assurance: 'account', forUserIds: [member.userId] });
    // Another person's floor is theirs alone.
    const owners = await createSession({ ctx: asPerson(ownerId), input: { interaction: sampleSurface() } });
    expect(owners.assurance).toBe('link');
  });

  it('refuses for (a person’s form is for that person), creating nothing', async () => {
    const before = await sessionCount();
    expect(
      await refusal(
        createSession({
          ctx: asPerson(ownerId),
          input: { interaction: sampleSurface(), assurance: 'account', for: [member.email] },
        }),
      ),
    ).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/for' });
    expect(await sessionCount()).toBe(before);
  });
});

describe('a workspace API key', () => {
  it("the workspace's floor beats the agent's link; the form is for the owners by default", async () => {
    await setKeyFloor('account');
    try {
      const created = await createSession({ ctx: asApiKey(), input: { interaction: sampleSurface(), assurance: 'link' } });
      expect(created.assurance).toBe('account');
      expect(await stored(created.sessionId)).toEqual({ assurance: 'account', forUserIds: [ownerId, secondOwnerId] });
      // A context without a maker is the workspace's own: the same floor.
      const bare = await createSession({ ctx: { runtime, workspaceId }, input: { interaction: sampleSurface() } });
      expect(bare.assurance).toBe('account');
    } finally {
      await setKeyFloor('link');
    }
  });

  it('names a member by e-mail (any case); a link form stores nobody', async () => {
    const created = await createSession({
      ctx: asApiKey(),
      input: { interaction: sampleSurface(), assurance: 'account', for: [member.email.toLowerCase()] },
    });
    expect(await stored(created.sessionId)).toEqual({ assurance: 'account', forUserIds: [member.userId] });
    const plain = await createSession({ ctx: asApiKey(), input: { interaction: sampleSurface() } });
    expect(await stored(plain.sessionId)).toEqual({ assurance: 'link', forUserIds: null });
  });

  it('refuses a non-member with its pointer (no address echoed), creating nothing', async () => {
    const before = await sessionCount();
    const body = await refusal(
      createSession({
        ctx: asApiKey(),
        input: { interaction: sampleSurface(), assurance: 'account', for: [member.email, stranger.email] },
        idempotencyKey: key(),
      }),
    );
    expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/for/1' });
    expect(body.message).toContain('names no member of this workspace');
    expect(body.message).not.toContain(stranger.email);
    expect(await sessionCount()).toBe(before);
  });

  it('an identical repeat replays; another assurance or for under the same key is another request', async () => {
    const k = key();
    const input = { interaction: sampleSurface('Sure?'), assurance: 'account', for: [member.email] };
    const first = await createSession({ ctx: asApiKey(), input, idempotencyKey: k });
    expect(await createSession({ ctx: asApiKey(), input, idempotencyKey: k })).toEqual(first);
    for (const other of [
      { interaction: sampleSurface('Sure?') },
      { interaction: sampleSurface('Sure?'), assurance: 'account' },
    ]) {
      expect(await refusal(createSession({ ctx: asApiKey(), input: other, idempotencyKey: k }))).toMatchObject({
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
    }
    // Absent and link are the same create: the key replays.
    const plainKey = key();
    const absent = await createSession({
      ctx: asApiKey(),
      input: { interaction: sampleSurface('Same') },
      idempotencyKey: plainKey,
    });
    expect(
      await createSession({
        ctx: asApiKey(),
        input: { interaction: sampleSurface('Same'), assurance: 'link' },
        idempotencyKey: plainKey,
      }),
    ).toEqual(absent);
  });
});

describe('an Ask', () => {
  it('is made at link under a link floor, and refused at /respondents under a higher one', async () => {
    const created = await createAsk({ ctx: asApiKey(), input: sampleAskArguments({ max: 3 }) });
    expect(created.assurance).toBe('link');
    expect(await stored(created.askId)).toEqual({ assurance: 'link', forUserIds: null });

    await setPersonFloor(member.userId, 'account');
    const before = await sessionCount();
    const body = await refusal(createAsk({ ctx: asPerson(member.userId), input: sampleAskArguments({ max: 3 }) }));
    expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/respondents' });
    expect(body.message).toContain('respondents.people');
    expect(await sessionCount()).toBe(before);
  });
});
