import { isId } from '@sess/core';
import {
  completeSession,
  createAsk,
  type FormsRuntime,
  openLink,
  publishSession,
  readAsk,
  readSession,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import { RESPONDENT_NAME_FIELD } from '@sess/surface';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createWorkspace,
  sampleAskArguments,
  type TestClock,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key, refusal } from '../src/test-helpers.ts';

let database: TestDatabase;
let clock: TestClock;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;
let other: WorkspaceContext;

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 10 });
  clock = createTestClock();
  runtime = createTestFormsRuntime(database, { now: clock.now });
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
  other = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

async function ask(respondents: Parameters<typeof sampleAskArguments>[0]) {
  const created = await createAsk({ ctx, input: sampleAskArguments(respondents) });
  return { ...created, token: tokenOf(created.humanUrl) };
}

describe('createAsk', () => {
  it('creates an Ask with one shared link; the landing view lets people start', async () => {
    const created = await ask({ max: 3 });
    expect(isId('ask', created.askId)).toBe(true);
    expect(created).toMatchObject({
      kind: 'ask',
      revision: 1,
      state: 'waiting',
      ask: { max: 3, name: false, respondentExpiresIn: null },
    });
    expect(await openLink(runtime, created.token)).toMatchObject({ kind: 'ask', state: 'open', canStart: true });
    expect(await readAsk({ ctx, askId: created.askId })).toMatchObject({
      state: 'waiting',
      open: true,
      counts: { started: 0, answered: 0, max: 3 },
      answers: [],
    });
  });

  it('refuses arguments without respondents, over the cap, over the plan ceiling, or malformed', async () => {
    const { respondents: _r, ...plain } = sampleAskArguments({ max: 1 });
    expect(await refusal(createAsk({ ctx, input: plain }))).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/respondents' });
    expect(await refusal(createAsk({ ctx, input: sampleAskArguments({ max: 1001 }) }))).toMatchObject({
      field: '/respondents/max',
      limit: 1000,
    });
    expect(await refusal(createAsk({ ctx, input: sampleAskArguments({ max: 2, expires_in: 31 * 86_400 }) }))).toMatchObject({
      field: '/respondents/expires_in',
      limit: 30 * 86_400,
    });
    expect(await refusal(createAsk({ ctx, input: { ...sampleAskArguments({ max: 2 }), question: '' } }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/question',
    });
  });

  it('is not found from another workspace; publish and complete refuse an Ask; readSession points at readAsk', async () => {
    const created = await ask({ max: 2 });
    expect(await refusal(readAsk({ ctx: other, askId: created.askId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(readSession({ ctx, sessionId: created.askId }))).toMatchObject({ code: 'INVALID_STATE' });
    const started = await startRespondent(runtime, created.token);
    const answer = await submitLinkAnswer(runtime, started.respondentToken, { revision: 1, submitted: { place: 'Beach' } });
    if (!answer.ok) throw new Error('refused');
    const input = { response_event_id: answer.eventId };
    expect(
      await refusal(completeSession({ ctx, sessionId: created.askId, expectedRevision: 1, idempotencyKey: key(), input })),
    ).toMatchObject({ code: 'INVALID_STATE' });
    expect(
      await refusal(
        publishSession({
          ctx,
          sessionId: created.askId,
          expectedRevision: 1,
          idempotencyKey: key(),
          input: { ...input, interaction: { mode: 'interactive', title: 'x', source: { kind: 'sess_surface', components: [] } } },
        }),
      ),
    ).toMatchObject({ code: 'INVALID_STATE' });
  });
});

describe('respondents', () => {
  it('each person gets their own page, answers once, and never sees anyone else’s answer', async () => {
    const created = await ask({ max: 3, name: true });
    const a = await startRespondent(runtime, created.token);
    const b = await startRespondent(runtime, created.token);
    expect(a.respondentToken).not.toBe(b.respondentToken);
    expect(await openLink(runtime, a.respondentToken)).toMatchObject({ kind: 'respondent', state: 'open', answer: null });
    const missingName = await submitLinkAnswer(runtime, a.respondentToken, { revision: 1, submitted: { place: 'Beach' } });
    expect(missingName).toMatchObject({ ok: false, errors: [{ field: RESPONDENT_NAME_FIELD, code: 'required' }] });
    const answered = await submitLinkAnswer(runtime, a.respondentToken, {
      revision: 1,
      submitted: { place: 'Beach', [RESPONDENT_NAME_FIELD]: 'Ana' },
    });
    expect(answered.ok).toBe(true);
    expect(await openLink(runtime, a.respondentToken)).toMatchObject({
      state: 'completed',
      answer: { values: { place: 'Beach' } },
    });
    const bView = await openLink(runtime, b.respondentToken);
    expect(bView).toMatchObject({ state: 'open', answer: null });
    expect(JSON.stringify(bView)).not.toContain('Ana');
    expect(
      await refusal(
        submitLinkAnswer(runtime, a.respondentToken, {
          revision: 1,
          submitted: { place: 'City', [RESPONDENT_NAME_FIELD]: 'Ana' },
        }),
      ),
    ).toMatchObject({ code: 'ALREADY_ANSWERED' });
    const read = await readAsk({ ctx, askId: created.askId });
    expect(read).toMatchObject({ state: 'waiting', counts: { started: 2, answered: 1, max: 3 } });
    expect(read.answers).toEqual([
      expect.objectContaining({ respondentName: 'Ana', values: { place: 'Beach', [RESPONDENT_NAME_FIELD]: 'Ana' }, revision: 1 }),
    ]);
    expect(read.answers[0]?.receipt.split('.')).toHaveLength(3);
  });

  it('closes once max people answered', async () => {
    const created = await ask({ max: 2 });
    for (const place of ['Beach', 'City']) {
      const { respondentToken } = await startRespondent(runtime, created.token);
      expect((await submitLinkAnswer(runtime, respondentToken, { revision: 1, submitted: { place } })).ok).toBe(true);
    }
    expect(await readAsk({ ctx, askId: created.askId })).toMatchObject({ state: 'closed', open: false, counts: { answered: 2 } });
    expect(await openLink(runtime, created.token)).toMatchObject({ state: 'closed', canStart: false });
    expect(await refusal(startRespondent(runtime, created.token))).toMatchObject({ code: 'LINK_CLOSED' });
  });

  it('a page that expires unanswered gives its place back; the Ask closes at its deadline', async () => {
    const created = await ask({ max: 1, expires_in: 7200, respondent_expires_in: 600 });
    const first = await startRespondent(runtime, created.token);
    expect(await refusal(startRespondent(runtime, created.token))).toMatchObject({ code: 'ASK_FULL' });
    expect(await openLink(runtime, created.token)).toMatchObject({ state: 'full', canStart: false });
    clock.advance(601_000);
    expect(await openLink(runtime, first.respondentToken)).toMatchObject({ state: 'expired' });
    expect(
      await refusal(submitLinkAnswer(runtime, first.respondentToken, { revision: 1, submitted: { place: 'Beach' } })),
    ).toMatchObject({
      code: 'LINK_CLOSED',
    });
    const second = await startRespondent(runtime, created.token);
    expect(Date.parse(second.expiresAt) - clock.now().getTime()).toBe(600_000);
    clock.advance(7200_000);
    expect(await readAsk({ ctx, askId: created.askId })).toMatchObject({ state: 'closed' });
    expect(await refusal(startRespondent(runtime, created.token))).toMatchObject({ code: 'LINK_CLOSED' });
  });

  it('withdrawing an Ask closes it for everyone', async () => {
    const created = await ask({ max: 5 });
    const { respondentToken } = await startRespondent(runtime, created.token);
    await withdrawSession({ ctx, sessionId: created.askId });
    expect(await openLink(runtime, created.token)).toMatchObject({ state: 'withdrawn' });
    expect(await openLink(runtime, respondentToken)).toMatchObject({ state: 'withdrawn' });
    expect(await refusal(startRespondent(runtime, created.token))).toMatchObject({ code: 'LINK_CLOSED' });
    expect(await readAsk({ ctx, askId: created.askId })).toMatchObject({ state: 'withdrawn', open: false });
  });

  it('startRespondent is NOT_FOUND for an interaction link or an unknown token', async () => {
    expect(await refusal(startRespondent(runtime, 'A'.repeat(43)))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the cap is exact under concurrency', () => {
  it('50 concurrent starts against max 10: exactly 10 pages, 40 ASK_FULL', async () => {
    const created = await ask({ max: 10 });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => startRespondent(runtime, created.token)));
    const started = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(started).toHaveLength(10);
    expect(refused).toHaveLength(40);
    expect(new Set(refused.map((r) => r.reason.code))).toEqual(new Set(['ASK_FULL']));
    expect(await readAsk({ ctx, askId: created.askId })).toMatchObject({ counts: { started: 10, answered: 0, max: 10 } });
  });
});
