import {
  createBrowserSession,
  deleteExpiredBrowserSessions,
  listWorkspacesForUser,
  readBrowserSession,
  SESSION_COOKIE,
  signInWithPassword,
} from '@sess/accounts';
import { browserSessions, users } from '@sess/db';
import { createTestDatabase, createTestUser, createTestWorkspace, type TestDatabase, type TestUser } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What the OAuth pages code against: readBrowserSession and listWorkspacesForUser.
let database: TestDatabase;
let ann: TestUser;
const t0 = new Date('2026-06-01T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  database = await createTestDatabase();
  ann = await createTestUser(database.db, { now: t0 });
});
afterAll(() => database.destroy());

describe('readBrowserSession', () => {
  it('returns { sessionId, userId, email, locale } for the cookie of a live session', async () => {
    const session = await createBrowserSession(database.db, { userId: ann.userId, now: t0 });
    const read = await readBrowserSession(database.db, `theme=dark; ${SESSION_COOKIE}=${session.token}`, at(1000));
    expect(read).toEqual({ sessionId: session.sessionId, userId: ann.userId, email: ann.email, locale: null });
  });

  it('returns null without a cookie, for junk, and for an unknown token', async () => {
    expect(await readBrowserSession(database.db, undefined, t0)).toBeNull();
    expect(await readBrowserSession(database.db, '', t0)).toBeNull();
    expect(await readBrowserSession(database.db, `${SESSION_COOKIE}=<script>`, t0)).toBeNull();
    expect(await readBrowserSession(database.db, `${SESSION_COOKIE}=${'A'.repeat(43)}`, t0)).toBeNull();
  });

  it('finds the live one when a sibling domain planted another cookie of the same name first', async () => {
    const session = await createBrowserSession(database.db, { userId: ann.userId, now: t0 });
    const read = await readBrowserSession(
      database.db,
      `${SESSION_COOKIE}=${'B'.repeat(43)}; ${SESSION_COOKIE}=${session.token}`,
      t0,
    );
    expect(read?.sessionId).toBe(session.sessionId);
  });

  it('honours the idle expiry (7 days), moved forward by use, and the absolute one (30 days)', async () => {
    const session = await createBrowserSession(database.db, { userId: ann.userId, now: t0 });
    const cookie = `${SESSION_COOKIE}=${session.token}`;
    expect(await readBrowserSession(database.db, cookie, at(7 * DAY - 1))).not.toBeNull();
    // That read moved the idle expiry to 14 days − 1 ms.
    expect(await readBrowserSession(database.db, cookie, at(14 * DAY - 2))).not.toBeNull();
    const unused = await createBrowserSession(database.db, { userId: ann.userId, now: t0 });
    expect(await readBrowserSession(database.db, `${SESSION_COOKIE}=${unused.token}`, at(7 * DAY))).toBeNull();
    for (let day = 20; day < 30; day += 6) expect(await readBrowserSession(database.db, cookie, at(day * DAY))).not.toBeNull();
    expect(await readBrowserSession(database.db, cookie, at(30 * DAY))).toBeNull();
  });

  it('returns null once the user is deleted (sessions go with the user)', async () => {
    const gone = await createTestUser(database.db, { now: t0 });
    const session = await createBrowserSession(database.db, { userId: gone.userId, now: t0 });
    await database.db.delete(users).where(eq(users.id, gone.userId));
    expect(await readBrowserSession(database.db, `${SESSION_COOKIE}=${session.token}`, t0)).toBeNull();
    expect(await database.db.select().from(browserSessions).where(eq(browserSessions.id, session.sessionId))).toEqual([]);
  });

  it('expired rows are swept', async () => {
    const stale = await createBrowserSession(database.db, { userId: ann.userId, now: t0 });
    expect(await deleteExpiredBrowserSessions(database.db, at(31 * DAY))).toBeGreaterThan(0);
    expect(await database.db.select().from(browserSessions).where(eq(browserSessions.id, stale.sessionId))).toEqual([]);
  });
});

describe('listWorkspacesForUser', () => {
  it('lists every workspace of a person with their role, personal workspace first', async () => {
    const bea = await createTestUser(database.db, { now: t0 });
    const shared = await createTestWorkspace(database.db, { userId: bea.userId, name: 'Shared', role: 'member', now: t0 });
    const owned = await createTestWorkspace(database.db, {
      userId: bea.userId,
      name: 'Side project',
      role: 'owner',
      now: at(DAY),
    });
    const list = await listWorkspacesForUser(database.db, bea.userId);
    expect(list).toEqual([
      { id: bea.workspaceId, name: expect.stringMatching(/'s workspace$/), role: 'owner' },
      { id: shared.workspaceId, name: 'Shared', role: 'member' },
      { id: owned.workspaceId, name: 'Side project', role: 'owner' },
    ]);
  });

  it('lists nothing of anyone else', async () => {
    const list = await listWorkspacesForUser(database.db, ann.userId);
    expect(list.map((w) => w.id)).toEqual([ann.workspaceId]);
    expect(await listWorkspacesForUser(database.db, 'usr_nobody')).toEqual([]);
  });
});

describe('signInWithPassword (verb)', () => {
  it('upgrades a hash made with weaker parameters after a successful sign-in', async () => {
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const weak = `scrypt$1024$8$1$${salt.toString('base64url')}$${scryptSync('an old long password', salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64url')}`;
    const old = await createTestUser(database.db, { now: t0 });
    await database.db.update(users).set({ passwordHash: weak }).where(eq(users.id, old.userId));
    await signInWithPassword(database.db, { email: old.email, password: 'an old long password', now: t0 });
    const [row] = await database.db.select().from(users).where(eq(users.id, old.userId));
    expect(row?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it('refuses an account without a password (upstream sign-in only) with the generic error', async () => {
    const oidcOnly = await createTestUser(database.db, { now: t0 });
    await database.db.update(users).set({ passwordHash: null }).where(eq(users.id, oidcOnly.userId));
    await expect(
      signInWithPassword(database.db, { email: oidcOnly.email, password: 'whatever it is', now: t0 }),
    ).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Email or password is wrong.',
    });
  });
});

describe('the hourly sweep', () => {
  it('deletes expired sessions, finished attempt windows and spent or expired sign-up links, at most once an hour', async () => {
    const { createAccountsSweeper } = await import('../src/http/sweep.ts');
    const { countSignInAttempt, issueFirstAccountToken } = await import('@sess/accounts');
    const { signInAttempts, signupTokens } = await import('@sess/db');
    const { createTestLogger } = await import('@sess/testkit');
    const session = await createBrowserSession(database.db, { userId: ann.userId, now: t0 });
    await countSignInAttempt(database.db, 'swept@example.com', t0);
    await database.db
      .insert(signupTokens)
      .values({ tokenHash: 'h'.repeat(64), kind: 'invite', expiresAt: at(DAY), createdAt: t0 });
    expect(await issueFirstAccountToken(database.db, t0)).toBeNull(); // not empty: no first-account link
    let clockAt = at(31 * DAY);
    const sweep = createAccountsSweeper(database.db, createTestLogger(), () => clockAt);
    sweep();
    await expect
      .poll(
        async () => (await database.db.select().from(browserSessions).where(eq(browserSessions.id, session.sessionId))).length,
      )
      .toBe(0);
    await expect.poll(async () => (await database.db.select().from(signInAttempts)).length).toBe(0);
    await expect.poll(async () => (await database.db.select().from(signupTokens)).length).toBe(0);
    // Within the hour nothing runs again.
    const fresh = await createBrowserSession(database.db, { userId: ann.userId, now: t0 });
    clockAt = new Date(clockAt.getTime() + 30 * 60 * 1000);
    expect(sweep()).toBeUndefined();
    expect(await database.db.select().from(browserSessions).where(eq(browserSessions.id, fresh.sessionId))).toHaveLength(1);
  });
});
