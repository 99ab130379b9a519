/*
 * Which way an answer came (`via`): an answer posted inside the agent's chat (MCP Apps) runs the
 * same admission as the link page — validation, states, event id, the first-answer-wins race —
 * and its receipt, its stored row and every view say `chat` with the OAuth principal. An Ask and
 * a form made with `answer_in_chat: false` refuse it and write nothing.
 */
import { formAnswers, formSessions } from '@sess/db';
import {
  type AnswerWay,
  completeSession,
  createAsk,
  type FormsRuntime,
  openLink,
  readAsk,
  readJwks,
  readSession,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import { createLocalKeySet, type ExpectedReceipt, verifyReceipt } from '@sess/receipts';
import {
  createTestDatabase,
  createTestFormsRuntime,
  createTestSession,
  createWorkspace,
  sampleAskArguments,
  TEST_PUBLIC_URL,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key, refusal } from '../src/test-helpers.ts';

let database: TestDatabase;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;

const PRINCIPAL = 'usr_ffffffffffffffffffffffffff';
const CHAT: AnswerWay = { via: 'chat', principalId: PRINCIPAL };
const answer = (message: string) => ({ revision: 1, actionId: 'approve', submitted: { message } });

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 10 });
  runtime = createTestFormsRuntime(database);
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

async function verify(receipt: string, expected: ExpectedReceipt) {
  const keys = await createLocalKeySet(await readJwks(runtime));
  return verifyReceipt(receipt, { keys, issuer: TEST_PUBLIC_URL, expected });
}

/** Every stored answer of a session, as the table holds it. */
function storedAnswers(sessionId: string) {
  return database.db
    .select({ id: formAnswers.id, via: formAnswers.via, viaPrincipalId: formAnswers.viaPrincipalId })
    .from(formAnswers)
    .where(eq(formAnswers.sessionId, sessionId));
}

/** The create path for `answer_in_chat` is not this file's: the column is set directly. */
async function setAnswerInChat(sessionId: string, value: boolean) {
  await database.db.update(formSessions).set({ answerInChat: value }).where(eq(formSessions.id, sessionId));
}

describe('an answer in the chat', () => {
  it('is signed, stored and shown as chat with its principal', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    const result = await submitLinkAnswer(runtime, created.token, answer('From the chat'), CHAT);
    if (!result.ok) throw new Error('refused');

    const { response, state } = await readSession({ ctx, sessionId: created.sessionId });
    expect(state).toBe('answered');
    expect(response).toMatchObject({ eventId: result.eventId, via: 'chat', viaPrincipalId: PRINCIPAL });
    const expected: ExpectedReceipt = {
      workspaceId: ctx.workspaceId,
      sessionId: created.sessionId,
      revision: 1,
      eventId: result.eventId,
      surfaceSha256: response!.surfaceSha256,
      answerSha256: response!.answerSha256,
      respondentId: null,
    };
    const verified = await verify(response!.receipt, { ...expected, via: 'chat', viaPrincipalId: PRINCIPAL });
    expect(verified).toMatchObject({
      ok: true,
      claims: { via: 'chat', via_principal_id: PRINCIPAL, actorAssurance: 'link_holder' },
    });
    expect(await verify(response!.receipt, { ...expected, via: 'link' })).toMatchObject({ ok: false, reason: 'VIA_MISMATCH' });

    expect(await storedAnswers(created.sessionId)).toEqual([{ id: result.eventId, via: 'chat', viaPrincipalId: PRINCIPAL }]);
    const page = await openLink(runtime, created.token);
    expect(page).toMatchObject({ kind: 'interaction', state: 'answered', answerInChat: true });
    expect(page.kind === 'interaction' && page.answer).toMatchObject({ via: 'chat', viaPrincipalId: PRINCIPAL });

    // Completing the session (a locked read) keeps the way.
    const completed = await completeSession({
      ctx,
      sessionId: created.sessionId,
      expectedRevision: 1,
      idempotencyKey: key(),
      input: { response_event_id: result.eventId },
    });
    expect(completed.response).toMatchObject({ via: 'chat', viaPrincipalId: PRINCIPAL });
  });

  it('a link answer (the default way) says link and names no principal', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    const result = await submitLinkAnswer(runtime, created.token, answer('From the page'));
    if (!result.ok) throw new Error('refused');
    const { response } = await readSession({ ctx, sessionId: created.sessionId });
    expect(response?.via).toBe('link');
    expect(response && 'viaPrincipalId' in response).toBe(false);
    const verified = await verify(response!.receipt, {
      workspaceId: ctx.workspaceId,
      sessionId: created.sessionId,
      revision: 1,
      eventId: result.eventId,
      surfaceSha256: response!.surfaceSha256,
      via: 'link',
      viaPrincipalId: null,
    });
    expect(verified.ok && verified.claims.via).toBe('link');
    expect(await storedAnswers(created.sessionId)).toEqual([{ id: result.eventId, via: 'link', viaPrincipalId: null }]);
    const page = await openLink(runtime, created.token);
    expect(page.kind === 'interaction' && page.answer?.via).toBe('link');
  });

  it('is validated like the page: a mistake comes back and nothing is written', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    const result = await submitLinkAnswer(runtime, created.token, answer(''), CHAT);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map((e) => e.field)).toEqual(['message']);
    expect(await storedAnswers(created.sessionId)).toEqual([]);
  });

  it('keeps the link’s states: a withdrawn form refuses it', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    await withdrawSession({ ctx, sessionId: created.sessionId });
    expect(await refusal(submitLinkAnswer(runtime, created.token, answer('Late'), CHAT))).toMatchObject({
      code: 'LINK_CLOSED',
      state: 'withdrawn',
    });
    expect(await storedAnswers(created.sessionId)).toEqual([]);
  });

  it('races the link like two tabs: one wins, the other is told it already has an answer, nothing else changes', async () => {
    for (let round = 0; round < 5; round += 1) {
      const created = await createTestSession(runtime, ctx.workspaceId);
      const [onLink, inChat] = await Promise.allSettled([
        submitLinkAnswer(runtime, created.token, answer('On the phone')),
        submitLinkAnswer(runtime, created.token, answer('In the chat'), CHAT),
      ]);
      const outcomes = [onLink, inChat];
      const won = outcomes.findIndex((o) => o.status === 'fulfilled' && o.value.ok);
      expect(won).toBeGreaterThanOrEqual(0);
      const lost = outcomes[1 - won]!;
      expect(lost.status).toBe('rejected');
      expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: 'ALREADY_ANSWERED' });

      const winner = (outcomes[won] as PromiseFulfilledResult<{ ok: true; eventId: string }>).value.eventId;
      const via = won === 0 ? 'link' : 'chat';
      expect(await storedAnswers(created.sessionId)).toEqual([
        { id: winner, via, viaPrincipalId: via === 'chat' ? PRINCIPAL : null },
      ]);
      const read = await readSession({ ctx, sessionId: created.sessionId });
      expect(read).toMatchObject({ state: 'answered', revision: 1, response: { eventId: winner, via } });
      expect(read.response?.values).toEqual({ message: won === 0 ? 'On the phone' : 'In the chat' });
      // The loser, repeated, is still refused the same way.
      const again = await refusal(
        won === 0
          ? submitLinkAnswer(runtime, created.token, answer('In the chat'), CHAT)
          : submitLinkAnswer(runtime, created.token, answer('On the phone')),
      );
      expect(again).toMatchObject({ code: 'ALREADY_ANSWERED' });
    }
  });
});

describe('where the chat may not answer', () => {
  it('a form made with answer_in_chat false refuses it with ANSWER_IN_CHAT_OFF and writes nothing; the link still answers', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    await setAnswerInChat(created.sessionId, false);
    const page = await openLink(runtime, created.token);
    expect(page).toMatchObject({ kind: 'interaction', state: 'open', answerInChat: false });

    const refused = await refusal(submitLinkAnswer(runtime, created.token, answer('In the chat'), CHAT));
    expect(refused).toMatchObject({
      code: 'ANSWER_IN_CHAT_OFF',
      kind: 'form',
      message: 'This form is answered on its link only: open the link to answer.',
    });
    expect(await storedAnswers(created.sessionId)).toEqual([]);
    expect(await readSession({ ctx, sessionId: created.sessionId })).toMatchObject({ state: 'waiting', response: null });

    const onLink = await submitLinkAnswer(runtime, created.token, answer('On the phone'));
    expect(onLink.ok).toBe(true);
    // Answered: the chat is still told the form is answered on its link only (its setting, not the race).
    expect(await refusal(submitLinkAnswer(runtime, created.token, answer('Late'), CHAT))).toMatchObject({
      code: 'ANSWER_IN_CHAT_OFF',
    });
  });

  it('an Ask refuses it, on its shared link and on a respondent’s page, and writes nothing', async () => {
    const created = await createAsk({ ctx, input: sampleAskArguments({ max: 2 }) });
    const askToken = tokenOf(created.humanUrl);
    const submitted = { revision: 1, submitted: { place: 'City' } };
    expect(await refusal(submitLinkAnswer(runtime, askToken, submitted, CHAT))).toMatchObject({
      code: 'ANSWER_IN_CHAT_OFF',
      kind: 'ask',
    });
    const { respondentToken } = await startRespondent(runtime, askToken);
    expect(await refusal(submitLinkAnswer(runtime, respondentToken, submitted, CHAT))).toMatchObject({
      code: 'ANSWER_IN_CHAT_OFF',
      kind: 'ask',
    });
    expect(await storedAnswers(created.askId)).toEqual([]);
    expect((await readAsk({ ctx, askId: created.askId })).counts).toMatchObject({ answered: 0 });
    expect(await openLink(runtime, respondentToken)).toMatchObject({ kind: 'respondent', state: 'open' });

    // The respondent's own page still answers, as a link answer.
    const onPage = await submitLinkAnswer(runtime, respondentToken, submitted);
    if (!onPage.ok) throw new Error('refused');
    const [answered] = (await readAsk({ ctx, askId: created.askId })).answers;
    expect(answered).toMatchObject({ eventId: onPage.eventId, via: 'link' });
  });
});
