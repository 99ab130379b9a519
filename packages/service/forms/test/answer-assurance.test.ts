/*
 * Who may answer a form above `link` (issue 37): one rule (decideAnswerer) for the page's post and
 * the chat's. An `account` form takes an answer only from an account it is for, records that
 * account and the level, and signs `assurance` and an opaque `respondent` into the receipt; the
 * link alone, another account and an API key write nothing. A `link` form is answered as before.
 */
import { formAnswers } from '@sess/db';
import {
  type AnswerWay,
  decideAnswerer,
  type FormsRuntime,
  openLink,
  readJwks,
  readSession,
  respondentOf,
  submitLinkAnswer,
  type WorkspaceContext,
} from '@sess/forms';
import { createLocalKeySet, verifyReceipt } from '@sess/receipts';
import {
  createTestDatabase,
  createTestFormsRuntime,
  createTestSession,
  createUser,
  createWorkspace,
  setFormAssurance,
  TEST_PUBLIC_URL,
  type TestDatabase,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../src/test-helpers.ts';

let database: TestDatabase;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;
let person: string;
let personEmail: string;
let other: string;

const answer = (message: string) => ({ revision: 1, actionId: 'approve', submitted: { message } });

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 10 });
  runtime = createTestFormsRuntime(database);
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
  ({ userId: person, email: personEmail } = await createUser(database.db, { workspaceId: ctx.workspaceId }));
  other = (await createUser(database.db, { workspaceId: ctx.workspaceId })).userId;
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

async function accountForm(forUserIds: string[] = [person]) {
  const created = await createTestSession(runtime, ctx.workspaceId);
  await setFormAssurance(database.db, created.sessionId, 'account', forUserIds);
  return created;
}

function storedAnswers(sessionId: string) {
  return database.db
    .select({ assurance: formAnswers.assurance, answeredByUserId: formAnswers.answeredByUserId })
    .from(formAnswers)
    .where(eq(formAnswers.sessionId, sessionId));
}

describe('decideAnswerer, the one rule', () => {
  const form = { assurance: 'account' as const, forUserIds: ['usr_aaaaaaaaaaaaaaaaaaaaaaaaaa'] };
  it.each<[string, AnswerWay, string]>([
    ['the link alone', { via: 'link' }, 'SIGN_IN_REQUIRED'],
    ['another account', { via: 'link', userId: 'usr_bbbbbbbbbbbbbbbbbbbbbbbbbb' }, 'FORM_FOR_SOMEONE_ELSE'],
    ['an API key in the chat', { via: 'chat', principalId: 'api_key:key_aaaaaaaaaaaaaaaaaaaaaaaaaa' }, 'ANSWERER_NOT_A_PERSON'],
    [
      'another OAuth principal in the chat',
      { via: 'chat', principalId: 'usr_bbbbbbbbbbbbbbbbbbbbbbbbbb' },
      'FORM_FOR_SOMEONE_ELSE',
    ],
  ])('refuses %s', (_name, way, code) => {
    const decided = decideAnswerer(form, way);
    expect(decided.ok ? 'admitted' : decided.refusal.code).toBe(code);
  });

  it('admits the account the form is for, on the page or as its OAuth principal in the chat', () => {
    for (const way of [
      { via: 'link', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
      { via: 'chat', principalId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
    ] satisfies AnswerWay[]) {
      expect(decideAnswerer(form, way)).toEqual({
        ok: true,
        answerer: { assurance: 'account', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
      });
    }
  });

  it('a link form admits anyone and records nobody; an account form naming nobody admits nobody', () => {
    expect(decideAnswerer({ assurance: 'link', forUserIds: null }, { via: 'link' })).toEqual({
      ok: true,
      answerer: { assurance: 'link', userId: null },
    });
    const none = decideAnswerer(
      { assurance: 'account', forUserIds: null },
      { via: 'link', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
    );
    expect(none.ok ? 'admitted' : none.refusal.code).toBe('FORM_FOR_SOMEONE_ELSE');
  });

  it('a passkey form is not met by the account alone', () => {
    const decided = decideAnswerer({ ...form, assurance: 'passkey' }, { via: 'link', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(decided.ok ? 'admitted' : decided.refusal.code).toBe('PASSKEY_REQUIRED');
  });
});

describe('an account form', () => {
  it('answered by its signed-in person: stored, viewed and signed as account with an opaque respondent', async () => {
    const created = await accountForm();
    const result = await submitLinkAnswer(runtime, created.token, answer('Yes'), { via: 'link', userId: person });
    expect(result.ok).toBe(true);
    expect(await storedAnswers(created.sessionId)).toEqual([{ assurance: 'account', answeredByUserId: person }]);

    const { response } = await readSession({ ctx, sessionId: created.sessionId });
    const respondent = respondentOf(runtime.secret, ctx.workspaceId, person);
    expect(response).toMatchObject({ assurance: 'account', respondent, via: 'link' });
    // Opaque: neither the user id nor anything of it; stable for the person in this workspace only.
    expect(respondent).not.toContain(person);
    expect(respondentOf(runtime.secret, ctx.workspaceId, person)).toBe(respondent);
    expect(respondentOf(runtime.secret, 'ws_otherotherotherotherother', person)).not.toBe(respondent);
    // The e-mail, from Sess's records, to the workspace's own keys only (never to a person's own connection).
    expect(response!.respondentEmail).toBe(personEmail);
    const asApiKey = await readSession({ ctx: { ...ctx, madeBy: { kind: 'api_key' } }, sessionId: created.sessionId });
    expect(asApiKey.response!.respondentEmail).toBe(personEmail);
    const asPerson = await readSession({
      ctx: { ...ctx, madeBy: { kind: 'person', userId: person } },
      sessionId: created.sessionId,
    });
    expect(asPerson.response).not.toHaveProperty('respondentEmail');
    const otherWorkspace = await createWorkspace(database.db);
    await expect(
      readSession({ ctx: { ...ctx, workspaceId: otherWorkspace.workspaceId }, sessionId: created.sessionId }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const keys = await createLocalKeySet(await readJwks(runtime));
    const verified = await verifyReceipt(response!.receipt, {
      keys,
      issuer: TEST_PUBLIC_URL,
      expected: {
        workspaceId: ctx.workspaceId,
        sessionId: created.sessionId,
        revision: 1,
        eventId: response!.eventId,
        surfaceSha256: response!.surfaceSha256,
        assurance: 'account',
        respondent,
        minAssurance: 'account',
      },
    });
    expect(verified.ok && verified.claims).toMatchObject({ assurance: 'account', respondent });
    const view = await openLink(runtime, created.token);
    expect(view.kind === 'interaction' && view.answer?.assurance).toBe('account');
  });

  it.each<[string, () => AnswerWay, string]>([
    ['the link alone (the agent fetching its own link)', () => ({ via: 'link' }), 'SIGN_IN_REQUIRED'],
    ['another member signed in', () => ({ via: 'link', userId: other }), 'FORM_FOR_SOMEONE_ELSE'],
    [
      'an API key in the chat',
      () => ({ via: 'chat', principalId: 'api_key:key_aaaaaaaaaaaaaaaaaaaaaaaaaa' }),
      'ANSWERER_NOT_A_PERSON',
    ],
  ])('refuses %s and writes nothing', async (_name, way, code) => {
    const created = await accountForm();
    expect(await refusal(submitLinkAnswer(runtime, created.token, answer('Self-approved'), way()))).toMatchObject({ code });
    expect(await storedAnswers(created.sessionId)).toEqual([]);
    expect((await readSession({ ctx, sessionId: created.sessionId })).state).toBe('waiting');
  });

  it("takes the chat answer of the OAuth principal of the form's person, as account", async () => {
    const created = await accountForm();
    const result = await submitLinkAnswer(runtime, created.token, answer('From the chat'), { via: 'chat', principalId: person });
    expect(result.ok).toBe(true);
    expect(await storedAnswers(created.sessionId)).toEqual([{ assurance: 'account', answeredByUserId: person }]);
    const { response } = await readSession({ ctx, sessionId: created.sessionId });
    expect(response).toMatchObject({ via: 'chat', viaPrincipalId: person, assurance: 'account' });
  });
});

describe('a link form', () => {
  it('is answered by the link alone, as before: assurance link, nobody recorded, no respondent', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    // A signed-in browser changes nothing at link: nobody is asked for, nobody is recorded.
    const result = await submitLinkAnswer(runtime, created.token, answer('Link'), { via: 'link', userId: other });
    expect(result.ok).toBe(true);
    expect(await storedAnswers(created.sessionId)).toEqual([{ assurance: 'link', answeredByUserId: null }]);
    const { response } = await readSession({ ctx, sessionId: created.sessionId });
    expect(response).toMatchObject({ assurance: 'link' });
    expect(response && 'respondent' in response).toBe(false);
    expect(response && 'respondentEmail' in response).toBe(false);
  });
});
