/*
 * Who may answer a form above `link` (issue 37): one rule (decideAnswerer) for the page's post and
 * the chat's. An `account` form takes an answer only from an account it is for, records that
 * account and the level, and signs `assurance` and an opaque `respondent` into the receipt; the
 * link alone, another account and an API key write nothing. A `link` form is answered as before.
 */
import { formAnswers } from '@sess/db';
import {
  type AnswerWay,
  bindPasskeyAnswer,
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

  it('a passkey form is not met by the account alone; the chat is told to open the link', () => {
    const decided = decideAnswerer({ ...form, assurance: 'passkey' }, { via: 'link', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(decided.ok ? 'admitted' : decided.refusal.code).toBe('PASSKEY_REQUIRED');
    const chat = decideAnswerer(
      { ...form, assurance: 'passkey' },
      { via: 'chat', principalId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
    );
    expect(chat.ok ? 'admitted' : [chat.refusal.code, chat.refusal.message]).toEqual([
      'PASSKEY_REQUIRED',
      expect.stringContaining('Open its link'),
    ]);
  });

  it("a passkey form admits its account with the ceremony's proof, and records it; nobody else, proof or not", () => {
    const passkeyForm = { ...form, assurance: 'passkey' as const };
    const passkey = { credentialId: 'cred-1', assertionSha256: 'a'.repeat(64) };
    expect(decideAnswerer(passkeyForm, { via: 'link', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa', passkey })).toEqual({
      ok: true,
      answerer: { assurance: 'passkey', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa', ...passkey },
    });
    const other = decideAnswerer(passkeyForm, { via: 'link', userId: 'usr_bbbbbbbbbbbbbbbbbbbbbbbbbb', passkey });
    expect(other.ok ? 'admitted' : other.refusal.code).toBe('FORM_FOR_SOMEONE_ELSE');
    const anonymous = decideAnswerer(passkeyForm, { via: 'link', passkey });
    expect(anonymous.ok ? 'admitted' : anonymous.refusal.code).toBe('SIGN_IN_REQUIRED');
    // Below `passkey`, a proof changes nothing: the level is the form's.
    expect(decideAnswerer(form, { via: 'link', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa', passkey })).toEqual({
      ok: true,
      answerer: { assurance: 'account', userId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
    });
  });
});

describe('a passkey form', () => {
  async function passkeyForm() {
    const created = await createTestSession(runtime, ctx.workspaceId);
    await setFormAssurance(database.db, created.sessionId, 'passkey', [person]);
    return created;
  }

  it('binds the ceremony to the very hash the stored answer and its receipt carry; both written only with the proof', async () => {
    const created = await passkeyForm();
    const bound = await bindPasskeyAnswer(runtime, created.token, answer('Ship it'), person);
    if (!bound.ok) throw new Error('expected a binding');
    expect(await storedAnswers(created.sessionId)).toEqual([]);
    expect(
      await refusal(submitLinkAnswer(runtime, created.token, answer('Ship it'), { via: 'link', userId: person })),
    ).toMatchObject({
      code: 'PASSKEY_REQUIRED',
    });

    const passkey = { credentialId: 'Y3JlZGVudGlhbA', assertionSha256: 'b'.repeat(64) };
    await submitLinkAnswer(runtime, created.token, answer('Ship it'), { via: 'link', userId: person, passkey });
    const [row] = await database.db
      .select({
        assurance: formAnswers.assurance,
        answeredByUserId: formAnswers.answeredByUserId,
        answerSha256: formAnswers.answerSha256,
        passkeyCredentialId: formAnswers.passkeyCredentialId,
        assertionSha256: formAnswers.assertionSha256,
      })
      .from(formAnswers)
      .where(eq(formAnswers.sessionId, created.sessionId));
    expect(row).toEqual({
      assurance: 'passkey',
      answeredByUserId: person,
      answerSha256: row!.answerSha256,
      passkeyCredentialId: passkey.credentialId,
      assertionSha256: passkey.assertionSha256,
    });
    expect(bound.boundTo).toBe(`${created.sessionId} 1 ${row!.answerSha256}`);

    const { response, surfaceSha256 } = await readSession({ ctx, sessionId: created.sessionId });
    const verified = await verifyReceipt(response!.receipt, {
      keys: await createLocalKeySet(await readJwks(runtime)),
      issuer: TEST_PUBLIC_URL,
      expected: {
        workspaceId: ctx.workspaceId,
        sessionId: created.sessionId,
        revision: 1,
        eventId: response!.eventId,
        surfaceSha256,
        answerSha256: row!.answerSha256,
        respondentId: null,
        minAssurance: 'passkey',
      },
    });
    expect(verified.ok && verified.claims).toMatchObject({
      assurance: 'passkey',
      passkey_credential_id: passkey.credentialId,
      assertion_sha256: passkey.assertionSha256,
    });
  });

  it('binds nothing for mistakes, another account or a form below passkey; the chat is refused', async () => {
    const created = await passkeyForm();
    const mistaken = await bindPasskeyAnswer(runtime, created.token, answer(''), person);
    expect(mistaken.ok ? 'bound' : mistaken.errors[0]?.field).toBe('message');
    expect(await refusal(bindPasskeyAnswer(runtime, created.token, answer('Ship it'), other))).toMatchObject({
      code: 'FORM_FOR_SOMEONE_ELSE',
    });
    const account = await accountForm();
    expect(await refusal(bindPasskeyAnswer(runtime, account.token, answer('Ship it'), person))).toMatchObject({
      code: 'INVALID_STATE',
    });
    const chat = { via: 'chat', principalId: person } as const;
    expect(await refusal(submitLinkAnswer(runtime, created.token, answer('Ship it'), chat))).toMatchObject({
      code: 'PASSKEY_REQUIRED',
    });
    expect(await storedAnswers(created.sessionId)).toEqual([]);
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
