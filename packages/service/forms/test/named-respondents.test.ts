/*
 * Named respondents of an Ask (`respondents.people`): the Ask is for the members it names, at
 * `account`; each signs in and gets ONE page through the shared link (a returning person the same
 * page), anyone else is refused with nothing written, and each answer's receipt carries `account`
 * and that person's opaque respondent. Floors, idempotency and the argument pointers too.
 */

import { newId } from '@sess/core';
import { askRespondents, formSessions, memberships, queryRows, workspaces } from '@sess/db';
import {
  createAsk,
  type FormsRuntime,
  openLink,
  readAsk,
  respondentOf,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
} from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createUser,
  createWorkspace,
  sampleAskArguments,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key, refusal } from '../src/test-helpers.ts';

let database: TestDatabase;
let runtime: FormsRuntime;
let clock: ReturnType<typeof createTestClock>;
let workspaceId: string;
let ana: { userId: string; email: string };
let bo: { userId: string; email: string };
let cy: { userId: string; email: string };
let outsider: { userId: string; email: string };

beforeAll(async () => {
  database = await createTestDatabase();
  clock = createTestClock();
  runtime = createTestFormsRuntime(database, { now: clock.now });
  ({ workspaceId } = await createWorkspace(database.db, { plan: 'pro' }));
  ana = await createUser(database.db, { workspaceId, email: `Ana-${newId('user')}@Example.com` });
  bo = await createUser(database.db, { email: `bo-${newId('user')}@example.com` });
  await database.db.insert(memberships).values({ id: newId('membership'), workspaceId, userId: bo.userId, role: 'member' });
  cy = await createUser(database.db, { workspaceId });
  outsider = await createUser(database.db, { workspaceId: (await createWorkspace(database.db)).workspaceId });
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

const asApiKey = (): WorkspaceContext => ({ runtime, workspaceId, madeBy: { kind: 'api_key' } });
const asPerson = (userId: string): WorkspaceContext => ({ runtime, workspaceId, madeBy: { kind: 'person', userId } });
const pick = { place: 'Beach' };

async function namedAsk(people: string[], ctx = asApiKey(), idempotencyKey?: string) {
  const created = await createAsk({ ctx, input: sampleAskArguments({ people }), idempotencyKey });
  return { ...created, token: tokenOf(created.humanUrl) };
}

async function counts(sessionId?: string) {
  const [row] = await queryRows<{ sessions: number; respondents: number; answers: number }>(
    database.db,
    sql`select (select count(*)::int from form_sessions where workspace_id = ${workspaceId}) as sessions,
               (select count(*)::int from ask_respondents where session_id = ${sessionId ?? ''}) as respondents,
               (select count(*)::int from form_answers where session_id = ${sessionId ?? ''}) as answers`,
  );
  return row;
}

async function setKeyFloor(floor: 'link' | 'account' | 'passkey') {
  await database.db.update(workspaces).set({ apiKeyAssuranceFloor: floor }).where(eq(workspaces.id, workspaceId));
}

describe('creating an Ask with named people', () => {
  it('is for the named members (any case), at account, with max their number', async () => {
    const created = await namedAsk([ana.email.toUpperCase(), bo.email]);
    expect(created).toMatchObject({ assurance: 'account', ask: { max: 2 } });
    const [row] = await database.db
      .select({ assurance: formSessions.assurance, forUserIds: formSessions.forUserIds, max: formSessions.askMax })
      .from(formSessions)
      .where(eq(formSessions.id, created.askId));
    expect(row).toEqual({ assurance: 'account', forUserIds: [ana.userId, bo.userId], max: 2 });
  });

  it('through a person’s own connection too: for the people named, not for its maker', async () => {
    const created = await namedAsk([bo.email], asPerson(ana.userId));
    const [row] = await database.db
      .select({ forUserIds: formSessions.forUserIds })
      .from(formSessions)
      .where(eq(formSessions.id, created.askId));
    expect(created.assurance).toBe('account');
    expect(row?.forUserIds).toEqual([bo.userId]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a max other than the number of people', { max: 3, people: ['a@example.com', 'b@example.com'] }, '/respondents/max'],
    ['a person twice', { people: ['a@example.com', 'A@EXAMPLE.com'] }, '/respondents/people/1'],
  ])('refuses %s, storing nothing', async (_, respondents, field) => {
    const before = await counts();
    const body = await refusal(createAsk({ ctx: asApiKey(), input: { ...sampleAskArguments({ max: 1 }), respondents } }));
    expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field });
    expect(await counts()).toEqual(before);
  });

  it('refuses a non-member at /respondents/people/<i> without repeating the address, storing nothing', async () => {
    const before = await counts();
    for (const stranger of [outsider.email, 'nobody-at-all@example.com']) {
      const body = await refusal(createAsk({ ctx: asApiKey(), input: sampleAskArguments({ people: [ana.email, stranger] }) }));
      expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/respondents/people/1' });
      expect(JSON.stringify(body).toLowerCase()).not.toContain(stranger.toLowerCase());
    }
    expect(await counts()).toEqual(before);
  });

  it('meets a floor of account: with people it is made, without them it stays refused', async () => {
    await setKeyFloor('account');
    try {
      const named = await namedAsk([ana.email]);
      expect(named.assurance).toBe('account');
      const before = await counts();
      const body = await refusal(createAsk({ ctx: asApiKey(), input: sampleAskArguments({ max: 2 }) }));
      expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/respondents' });
      expect(await counts()).toEqual(before);
    } finally {
      await setKeyFloor('link');
    }
  });

  it('is refused at /respondents under a passkey floor (no passkey on an Ask yet), storing nothing', async () => {
    await setKeyFloor('passkey');
    try {
      const before = await counts();
      const body = await refusal(createAsk({ ctx: asApiKey(), input: sampleAskArguments({ people: [ana.email] }) }));
      expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/respondents' });
      expect(await counts()).toEqual(before);
    } finally {
      await setKeyFloor('link');
    }
  });

  it('is idempotent over the people in any case, and another list under the same key is a reuse', async () => {
    const k = key();
    const first = await namedAsk([ana.email, bo.email], asApiKey(), k);
    const again = await namedAsk([ana.email.toLowerCase(), bo.email.toUpperCase()], asApiKey(), k);
    expect(again.askId).toBe(first.askId);
    expect(again.humanUrl).toBe(first.humanUrl);
    const reused = await refusal(namedAsk([ana.email], asApiKey(), k));
    expect(reused).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});

describe('the shared link of a named Ask', () => {
  it('gives each named person their own page, once; the same page when they come back; nobody else starts', async () => {
    const created = await namedAsk([ana.email, bo.email]);
    const a = await startRespondent(runtime, created.token, ana.userId);
    const again = await startRespondent(runtime, created.token, ana.userId);
    expect(again).toEqual(a);
    const b = await startRespondent(runtime, created.token, bo.userId);
    expect(b.respondentToken).not.toBe(a.respondentToken);
    const stored = await database.db
      .select({ userId: askRespondents.userId })
      .from(askRespondents)
      .where(eq(askRespondents.sessionId, created.askId));
    expect(stored.map((row) => row.userId).sort()).toEqual([ana.userId, bo.userId].sort());

    const before = await counts(created.askId);
    for (const [who, code] of [
      [cy.userId, 'FORM_FOR_SOMEONE_ELSE'],
      [outsider.userId, 'FORM_FOR_SOMEONE_ELSE'],
      [undefined, 'SIGN_IN_REQUIRED'],
    ] as const) {
      expect(await refusal(startRespondent(runtime, created.token, who))).toMatchObject({ code });
    }
    expect(await counts(created.askId)).toEqual(before);
    expect((await readAsk({ ctx: asApiKey(), askId: created.askId })).counts).toEqual({ started: 2, answered: 0, max: 2 });

    // Each page is its person's alone: shown with only them as its account.
    expect(await openLink(runtime, a.respondentToken)).toMatchObject({ kind: 'respondent', forUserIds: [ana.userId] });
  });

  it('counts a person once even when they press Start in several browsers at the same moment', async () => {
    const created = await namedAsk([ana.email, bo.email]);
    const starts = await Promise.all(Array.from({ length: 5 }, () => startRespondent(runtime, created.token, ana.userId)));
    expect(new Set(starts.map((started) => started.respondentToken)).size).toBe(1);
    expect(await counts(created.askId)).toMatchObject({ respondents: 1 });
    expect((await readAsk({ ctx: asApiKey(), askId: created.askId })).counts).toMatchObject({ started: 1 });
  });

  it('takes each page’s answer from its person only, signed as account with their opaque respondent', async () => {
    const created = await namedAsk([ana.email, bo.email]);
    const a = await startRespondent(runtime, created.token, ana.userId);
    const b = await startRespondent(runtime, created.token, bo.userId);

    const before = await counts(created.askId);
    for (const way of [{ via: 'link' as const, userId: bo.userId }, { via: 'link' as const }]) {
      expect(await refusal(submitLinkAnswer(runtime, a.respondentToken, { revision: 1, submitted: pick }, way))).toMatchObject({
        code: way.userId ? 'FORM_FOR_SOMEONE_ELSE' : 'SIGN_IN_REQUIRED',
      });
    }
    expect(await counts(created.askId)).toEqual(before);

    for (const [page, person] of [
      [a, ana],
      [b, bo],
    ] as const) {
      const result = await submitLinkAnswer(
        runtime,
        page.respondentToken,
        { revision: 1, submitted: pick },
        {
          via: 'link',
          userId: person.userId,
        },
      );
      expect(result.ok).toBe(true);
    }
    const read = await readAsk({ ctx: asApiKey(), askId: created.askId });
    expect(read.state).toBe('closed');
    // Both answered at the same (test) instant: in either order.
    const answers = read.answers.map((answer) => [answer.respondentId, answer.assurance, answer.respondent]);
    expect(answers).toHaveLength(2);
    expect(answers).toEqual(
      expect.arrayContaining([
        [a.respondentId, 'account', respondentOf(runtime.secret, workspaceId, ana.userId)],
        [b.respondentId, 'account', respondentOf(runtime.secret, workspaceId, bo.userId)],
      ]),
    );
    // Coming back after answering: their own page, with their answer.
    const back = await startRespondent(runtime, created.token, ana.userId);
    expect(back.respondentToken).toBe(a.respondentToken);
    expect(await openLink(runtime, back.respondentToken)).toMatchObject({ kind: 'respondent', state: 'completed' });
  });

  it('runs a lapsed unanswered page again for its person, never a second place', async () => {
    const created = await createAsk({
      ctx: asApiKey(),
      input: sampleAskArguments({ people: [ana.email], respondent_expires_in: 60 }),
    });
    const token = tokenOf(created.humanUrl);
    const first = await startRespondent(runtime, token, ana.userId);
    clock.advance(61_000);
    expect(await openLink(runtime, first.respondentToken)).toMatchObject({ state: 'expired' });
    const again = await startRespondent(runtime, token, ana.userId);
    expect(again.respondentId).toBe(first.respondentId);
    expect(again.respondentToken).toBe(first.respondentToken);
    expect(await openLink(runtime, again.respondentToken)).toMatchObject({ state: 'open' });
    expect(await counts(created.askId)).toMatchObject({ respondents: 1 });
  });
});
