import { formSessions, queryRows } from '@sess/db';
import { createAsk, createSession, type FormsRuntime, type WorkspaceContext } from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createWorkspace,
  sampleAskArguments,
  sampleSurface,
  type TestDatabase,
} from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key, refusal } from '../src/test-helpers.ts';

/*
 * `answer_in_chat` on create (issue 36): a form may forbid being answered in the agent's chat.
 * It is stored on the session row; an Ask is never answered in the chat. Each case reads the row.
 */

let database: TestDatabase;
let runtime: FormsRuntime;
let limited: WorkspaceContext;
let unlimited: WorkspaceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = createTestFormsRuntime(database, { now: createTestClock().now });
  limited = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
  const { workspaceId } = await createWorkspace(database.db, { plan: 'enterprise' });
  unlimited = { runtime, workspaceId, plan: 'enterprise' };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

async function storedAnswerInChat(sessionId: string): Promise<boolean | undefined> {
  const [row] = await database.db
    .select({ answerInChat: formSessions.answerInChat })
    .from(formSessions)
    .where(eq(formSessions.id, sessionId));
  return row?.answerInChat;
}

async function sessionCount(workspaceId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`,
  );
  return Number(row?.n);
}

describe.each([
  ['a plan with an open-session limit', () => limited],
  ['a plan without one (one statement)', () => unlimited],
])('createSession on %s', (_, ctxOf) => {
  it('stores false when asked, true by default and when given true, and says so', async () => {
    const ctx = ctxOf();
    const forbidden = await createSession({ ctx, input: { interaction: sampleSurface(), answer_in_chat: false } });
    expect(forbidden.answerInChat).toBe(false);
    expect(await storedAnswerInChat(forbidden.sessionId)).toBe(false);

    const byDefault = await createSession({ ctx, input: { interaction: sampleSurface() } });
    expect(byDefault.answerInChat).toBe(true);
    expect(await storedAnswerInChat(byDefault.sessionId)).toBe(true);

    const allowed = await createSession({ ctx, input: { interaction: sampleSurface(), answer_in_chat: true } });
    expect(allowed.answerInChat).toBe(true);
    expect(await storedAnswerInChat(allowed.sessionId)).toBe(true);
  });

  it('an identical repeat replays; another answer_in_chat under the same key is another request', async () => {
    const ctx = ctxOf();
    const k = key();
    const input = { interaction: sampleSurface('Chat?'), answer_in_chat: false };
    const first = await createSession({ ctx, input, idempotencyKey: k });
    expect(await createSession({ ctx, input, idempotencyKey: k })).toEqual(first);
    const before = await sessionCount(ctx.workspaceId);
    expect(
      await refusal(createSession({ ctx, input: { interaction: sampleSurface('Chat?') }, idempotencyKey: k })),
    ).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await refusal(createSession({ ctx, input: { ...input, answer_in_chat: true }, idempotencyKey: k }))).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await sessionCount(ctx.workspaceId)).toBe(before);

    // Absent and true are the same create: the key replays.
    const other = key();
    const absent = await createSession({ ctx, input: { interaction: sampleSurface('Same') }, idempotencyKey: other });
    expect(
      await createSession({ ctx, input: { interaction: sampleSurface('Same'), answer_in_chat: true }, idempotencyKey: other }),
    ).toEqual(absent);
  });

  it('refuses an answer_in_chat that is not a boolean, with its pointer, creating nothing', async () => {
    const ctx = ctxOf();
    const before = await sessionCount(ctx.workspaceId);
    expect(await refusal(createSession({ ctx, input: { interaction: sampleSurface(), answer_in_chat: 'no' } }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/answer_in_chat',
    });
    expect(await sessionCount(ctx.workspaceId)).toBe(before);
  });
});

describe('createAsk', () => {
  it('stores false: an Ask is never answered in the chat, whether answer_in_chat is left out or false', async () => {
    const absent = await createAsk({ ctx: limited, input: sampleAskArguments({ max: 3 }) });
    expect(await storedAnswerInChat(absent.askId)).toBe(false);
    const given = await createAsk({ ctx: limited, input: { ...sampleAskArguments({ max: 3 }), answer_in_chat: false } });
    expect(await storedAnswerInChat(given.askId)).toBe(false);
  });

  it('refuses answer_in_chat true at /answer_in_chat and creates nothing', async () => {
    const before = await sessionCount(limited.workspaceId);
    const body = await refusal(
      createAsk({ ctx: limited, input: { ...sampleAskArguments({ max: 3 }), answer_in_chat: true }, idempotencyKey: key() }),
    );
    expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/answer_in_chat' });
    expect(body.message).toContain("An Ask's link is for others: it is never answered in the chat.");
    expect(await sessionCount(limited.workspaceId)).toBe(before);
  });
});
