import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { decidedBy, isSessError, type SessErrorBody } from '@sess/core';
import { DatabaseWaitError } from '@sess/db';
import {
  createAsk,
  type FormsRuntime,
  openLink,
  readAsk,
  readJwks,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import { createLocalKeySet, verifyDecision } from '@sess/receipts';
import { DECISION_ACTIONS, decisionRuleText, resolveActions } from '@sess/surface';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createWorkspace,
  onlyOn,
  TEST_PUBLIC_URL,
  type TestClock,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../src/test-helpers.ts';

/*
 * Asks that decide (respondents.decide): each rule at its boundaries, a timeout that never decides,
 * and many answers at once (exactly one decision; the counts are the accepted answers).
 */

let database: TestDatabase;
let clock: TestClock;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 10 });
  clock = createTestClock();
  runtime = createTestFormsRuntime(database, { now: clock.now });
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

type Rule = { decide: 'any' | 'all' | 'quorum'; quorum?: number; max: number; expires_in?: number };

function decidingArguments(rule: Rule) {
  return {
    question: 'Ship the release?',
    fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
    respondents: rule,
  };
}

async function decidingAsk(rule: Rule, on: WorkspaceContext = ctx) {
  const created = await createAsk({ ctx: on, input: decidingArguments(rule) });
  return { ...created, token: tokenOf(created.humanUrl) };
}

/** A person starts their page (not answering yet). */
const start = async (token: string) => (await startRespondent(runtime, token)).respondentToken;

/** A started page answers Approve or Reject. */
const press = (page: string, actionId: 'approve' | 'reject') =>
  submitLinkAnswer(runtime, page, { revision: 1, actionId, submitted: {} });

/** A person starts and answers. */
async function answer(token: string, actionId: 'approve' | 'reject') {
  return press(await start(token), actionId);
}

const decisionOf = async (askId: string, on: WorkspaceContext = ctx) => (await readAsk({ ctx: on, askId })).decision;

describe('an Ask that decides: created', () => {
  it('shows its rule on the form and has Approve and Reject buttons; the rule is fixed in the Ask', async () => {
    const created = await decidingAsk({ decide: 'quorum', quorum: 2, max: 3 });
    expect(created.ask).toMatchObject({ max: 3, decide: 'quorum', quorum: 2 });
    const view = await openLink(runtime, created.token);
    expect(resolveActions(view.surface)).toEqual(DECISION_ACTIONS);
    expect(view.surface.source.components).toContainEqual({ type: 'text', text: decisionRuleText('quorum', 2, 3) });
    expect(decisionRuleText('quorum', 2, 3)).toBe(
      'How this is decided: approved when 2 people of 3 approve; rejected when 2 people reject.',
    );
    expect(await decisionOf(created.askId)).toEqual({
      rule: 'quorum',
      quorum: 2,
      outcome: 'pending',
      approved: 0,
      rejected: 0,
      approveAt: 2,
      rejectAt: 2,
      decidedAt: null,
    });
  });

  it('an Ask without decide has no decision', async () => {
    const created = await createAsk({
      ctx,
      input: { question: 'Lunch?', fields: [{ name: 'where', label: 'Where?', type: 'text' }], respondents: { max: 2 } },
    });
    expect((await readAsk({ ctx, askId: created.askId })).decision).toBeUndefined();
  });

  it('refuses a rule that cannot be met or is half given, pointing at it; nothing is made', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ max: 3, decide: 'quorum' }, '/respondents/quorum'],
      [{ max: 3, quorum: 2 }, '/respondents/quorum'],
      [{ max: 3, decide: 'quorum', quorum: 4 }, '/respondents/quorum'],
      [{ max: 3, decide: 'all', quorum: 2 }, '/respondents/quorum'],
      [{ max: 3, decide: 'most' }, '/respondents/decide'],
      [{ max: 3, decide: 'quorum', quorum: 0 }, '/respondents/quorum'],
    ];
    for (const [respondents, field] of cases) {
      const input = { ...decidingArguments({ decide: 'any', max: 1 }), respondents };
      expect(await refusal(createAsk({ ctx, input })), JSON.stringify(respondents)).toMatchObject({
        code: 'INVALID_ARGUMENTS',
        field,
      });
    }
    const labelled = { ...decidingArguments({ decide: 'any', max: 2 }), submit_label: 'Go' };
    expect(await refusal(createAsk({ ctx, input: labelled }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/submit_label',
    });
  });
});

describe('the decision receipt', () => {
  it('is signed once decided, verifies offline against the answers it counts, and fails with one of them removed', async () => {
    const created = await decidingAsk({ decide: 'quorum', quorum: 2, max: 3 });
    await answer(created.token, 'approve');
    expect((await decisionOf(created.askId))?.receipt).toBeUndefined();
    await answer(created.token, 'reject');
    await answer(created.token, 'approve');
    const read = await readAsk({ ctx, askId: created.askId });
    const receipt = read.decision?.receipt;
    expect(receipt).toBeDefined();
    // Kept: every later read gives the same receipt.
    expect((await decisionOf(created.askId))?.receipt).toBe(receipt);
    const keys = await createLocalKeySet(await readJwks(runtime));
    const check = (answerReceipts: string[]) =>
      verifyDecision(receipt!, {
        keys,
        issuer: TEST_PUBLIC_URL,
        expected: { workspaceId: ctx.workspaceId, askId: created.askId },
        answerReceipts,
      });
    const all = read.answers.map((a) => a.receipt);
    const verified = await check(all);
    expect(verified).toMatchObject({ ok: true, claims: { outcome: 'approved', rule: 'quorum', quorum: 2, max: 3 } });
    expect(verified.ok && verified.claims.answers.map((a) => a.intent).sort()).toEqual(['approve', 'approve', 'reject']);
    for (let i = 0; i < all.length; i++) {
      const removed = await check(all.filter((_, j) => j !== i));
      expect(removed).toMatchObject({ ok: false, reason: 'DECISION_ANSWER_MISSING' });
    }
    // Another Ask's verified answers are not this one's.
    expect(
      await verifyDecision(receipt!, {
        keys,
        issuer: TEST_PUBLIC_URL,
        expected: { workspaceId: ctx.workspaceId, askId: 'ask_other' },
        answerReceipts: all,
      }),
    ).toMatchObject({ ok: false });
  });
});

describe('each rule at its boundaries', () => {
  it('quorum 2 of 3: the second approve decides, exactly then; a page started before gets "Already decided"', async () => {
    const created = await decidingAsk({ decide: 'quorum', quorum: 2, max: 3 });
    const late = await start(created.token);
    await answer(created.token, 'approve');
    expect(await decisionOf(created.askId)).toMatchObject({ outcome: 'pending', approved: 1 });
    clock.advance(1000);
    await answer(created.token, 'approve');
    expect(await decisionOf(created.askId)).toMatchObject({
      outcome: 'approved',
      approved: 2,
      rejected: 0,
      decidedAt: clock.now().toISOString(),
    });
    // The page started before the decision: refused, nothing written.
    expect(await refusal(press(late, 'reject'))).toMatchObject({ code: 'LINK_CLOSED', state: 'decided', decision: 'approved' });
    expect(await openLink(runtime, late)).toMatchObject({ kind: 'respondent', state: 'expired', decided: 'approved' });
    // Nobody more starts.
    expect(await refusal(startRespondent(runtime, created.token))).toMatchObject({ code: 'LINK_CLOSED', state: 'decided' });
    expect(await openLink(runtime, created.token)).toMatchObject({
      kind: 'ask',
      state: 'closed',
      canStart: false,
      decided: 'approved',
    });
    const read = await readAsk({ ctx, askId: created.askId });
    expect(read).toMatchObject({ state: 'closed', open: false, counts: { answered: 2, max: 3 } });
    expect(read.answers.map((a) => a.actionId)).toEqual(['approve', 'approve']);
  });

  it('quorum 2 of 3: an approve, then a reject keeps it open; the second reject makes 2 unreachable and decides', async () => {
    const created = await decidingAsk({ decide: 'quorum', quorum: 2, max: 3 });
    await answer(created.token, 'approve');
    await answer(created.token, 'reject');
    expect(await decisionOf(created.askId)).toMatchObject({ outcome: 'pending', approved: 1, rejected: 1 });
    // 1 approve + 1 reject of 3: one place left, 2 approvals still reachable.
    await answer(created.token, 'reject');
    expect(await decisionOf(created.askId)).toMatchObject({ outcome: 'rejected', approved: 1, rejected: 2 });
  });

  it('quorum 2 of 3: two rejects first decide at once (N can no longer be reached)', async () => {
    const created = await decidingAsk({ decide: 'quorum', quorum: 2, max: 3 });
    await answer(created.token, 'reject');
    expect(await decisionOf(created.askId)).toMatchObject({ outcome: 'pending' });
    await answer(created.token, 'reject');
    expect(await decisionOf(created.askId)).toMatchObject({ outcome: 'rejected', rejected: 2 });
  });

  it('all of 3: two approve, then a late reject decides reject; all three approving decides approve', async () => {
    const rejected = await decidingAsk({ decide: 'all', max: 3 });
    await answer(rejected.token, 'approve');
    await answer(rejected.token, 'approve');
    expect(await decisionOf(rejected.askId)).toMatchObject({ outcome: 'pending', approved: 2, approveAt: 3, rejectAt: 1 });
    await answer(rejected.token, 'reject');
    expect(await decisionOf(rejected.askId)).toMatchObject({ outcome: 'rejected', approved: 2, rejected: 1 });

    const approved = await decidingAsk({ decide: 'all', max: 3 });
    for (let i = 0; i < 3; i++) await answer(approved.token, 'approve');
    expect(await decisionOf(approved.askId)).toMatchObject({ outcome: 'approved', approved: 3 });
  });

  it('any: the first answer decides, a reject as much as an approve', async () => {
    const created = await decidingAsk({ decide: 'any', max: 5 });
    const second = await start(created.token);
    await answer(created.token, 'reject');
    expect(await decisionOf(created.askId)).toMatchObject({ outcome: 'rejected', rejected: 1, approved: 0 });
    expect(await refusal(press(second, 'approve'))).toMatchObject({ code: 'LINK_CLOSED', decision: 'rejected' });
  });

  it('a timeout is never consent: all but one approve, then the Ask ends → undecided; a withdrawn Ask too', async () => {
    const expiring = await decidingAsk({ decide: 'all', max: 3, expires_in: 3600 });
    await answer(expiring.token, 'approve');
    await answer(expiring.token, 'approve');
    clock.advance(3600 * 1000);
    expect(await readAsk({ ctx, askId: expiring.askId })).toMatchObject({
      state: 'closed',
      decision: { outcome: 'undecided', approved: 2, rejected: 0, decidedAt: null },
    });

    const withdrawn = await decidingAsk({ decide: 'quorum', quorum: 1, max: 2 });
    await withdrawSession({ ctx, sessionId: withdrawn.askId });
    expect(await decisionOf(withdrawn.askId)).toMatchObject({ outcome: 'undecided' });
  });
});

/** Accepted or refused, retrying a write the workspace's gate turned away (what a page does). */
async function settle(submit: () => Promise<unknown>): Promise<'accepted' | SessErrorBody> {
  for (;;) {
    try {
      await submit();
      return 'accepted';
    } catch (error) {
      if (error instanceof DatabaseWaitError && error.code === 'WRITES_BUSY') continue;
      if (!isSessError(error)) throw error;
      return error.toBody();
    }
  }
}

/** Sends answers from another process and resolves to their outcomes, in order. */
type OtherReplica = (pages: Array<{ token: string; actionId: string }>) => Promise<Array<'accepted' | SessErrorBody>>;

const ANSWERER = fileURLToPath(new URL('./fixtures/answer-pages.ts', import.meta.url));

/** The second replica: one child process for the whole test, a batch of answers per line. */
async function startSecondProcess(): Promise<{ answer: OtherReplica; close: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ANSWERER, database.url!], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`the second replica ended (${await exited})`);
    return line.value;
  };
  expect(await next()).toBe('ready');
  return {
    async answer(pages) {
      child.stdin.write(`${JSON.stringify({ now: clock.now().toISOString(), pages })}\n`);
      return JSON.parse(await next()) as Array<'accepted' | SessErrorBody>;
    },
    async close() {
      child.stdin.end();
      expect(await exited).toBe(0);
    },
  };
}

/**
 * `max` pages started, then every one answering at once (approve unless `rejects` names its
 * index); with `other`, every other answer is sent by that replica at the same time. Checks one
 * decision and exact counts.
 */
async function answerAtOnce(rule: Rule, rejects: ReadonlySet<number>, on: WorkspaceContext, other?: OtherReplica): Promise<void> {
  const created = await decidingAsk(rule, on);
  const pages: string[] = [];
  for (let i = 0; i < rule.max; i++) pages.push(await start(created.token));
  const actionOf = (i: number) => (rejects.has(i) ? 'reject' : 'approve');
  const mine = pages.flatMap((page, i) => (other && i % 2 === 1 ? [] : [settle(() => press(page, actionOf(i)))]));
  const theirs = other
    ? other(pages.flatMap((token, i) => (i % 2 === 1 ? [{ token, actionId: actionOf(i) }] : [])))
    : Promise.resolve([]);
  const outcomes = [...(await Promise.all(mine)), ...(await theirs)];
  expect(outcomes).toHaveLength(rule.max);
  const read = await readAsk({ ctx: on, askId: created.askId });
  const decision = read.decision!;
  const accepted = outcomes.filter((o) => o === 'accepted').length;
  // Every refusal is "Already decided" with the one outcome: no other error, no lost vote.
  for (const refused of outcomes.filter((o) => o !== 'accepted'))
    expect(refused).toMatchObject({ code: 'LINK_CLOSED', state: 'decided', decision: decision.outcome });
  expect(decision.outcome === 'approved' || decision.outcome === 'rejected').toBe(true);
  // The database's count and the offline rule (@sess/core) agree.
  expect(decidedBy(decision, decision)).toBe(decision.outcome);
  expect(read.answers).toHaveLength(accepted);
  expect(read.counts.answered).toBe(accepted);
  const approves = read.answers.filter((a) => a.actionId === 'approve').length;
  expect(decision.approved).toBe(approves);
  expect(decision.rejected).toBe(accepted - approves);
  // Decided by the last accepted answer, not one answer sooner or later: the deciding count is
  // exactly met and the other never was.
  if (decision.outcome === 'approved') {
    expect(decision.approved).toBe(decision.approveAt);
    expect(decision.rejected).toBeLessThan(decision.rejectAt);
  } else {
    expect(decision.rejected).toBe(decision.rejectAt);
    expect(decision.approved).toBeLessThan(decision.approveAt);
  }
}

describe('answers at once', () => {
  it('50 people answering at once against quorum 2 and all, many rounds: exactly one decision, nothing lost', async () => {
    const workspace = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
    for (let round = 0; round < 3; round++) {
      await answerAtOnce({ decide: 'quorum', quorum: 2, max: 50 }, new Set([round, 10 + round]), workspace);
      await answerAtOnce({ decide: 'all', max: 50 }, new Set([17 + round]), workspace);
      await answerAtOnce({ decide: 'all', max: 50 }, new Set(), workspace);
    }
  });

  it.runIf(onlyOn('forms: decisions across replicas'))(
    'the same with every other answer sent by a second replica in its own process (its own pool on the same PostgreSQL)',
    async () => {
      const second = await startSecondProcess();
      try {
        const workspace = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
        for (let round = 0; round < 3; round++) {
          await answerAtOnce({ decide: 'quorum', quorum: 2, max: 50 }, new Set([round * 3]), workspace, second.answer);
          await answerAtOnce({ decide: 'all', max: 50 }, new Set([25 + round]), workspace, second.answer);
        }
      } finally {
        await second.close();
      }
    },
    // A child process's start (tsx) is seconds on a loaded box: a bound, not a measure.
    90_000,
  );
});
