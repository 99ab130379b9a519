/*
 * The form inside the agent's chat, for a form above `link` (issue 37): the chat's answer goes
 * through the page's own rule (answerLink → forms' decideAnswerer). An OAuth principal is the
 * person it was granted by, so the chat answer of the form's own person is taken at `account`; an
 * API key's principal is no person and is refused (ANSWERER_NOT_A_PERSON), as is another person's
 * (FORM_FOR_SOMEONE_ELSE); a refusal writes nothing and shows the form again with its message.
 */
import { createChatViews } from '@sess/answer-pages';
import { formAnswers } from '@sess/db';
import { type FormsRuntime, linkUrl, readSession, type WorkspaceContext } from '@sess/forms';
import {
  createTestDatabase,
  createTestFormsRuntime,
  createTestSession,
  createUser,
  createWorkspace,
  setFormAssurance,
  type TestDatabase,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let database: TestDatabase;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;
let person: string;
let other: string;
let views: ReturnType<typeof createChatViews>;

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 10 });
  runtime = createTestFormsRuntime(database);
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
  person = (await createUser(database.db, { workspaceId: ctx.workspaceId })).userId;
  other = (await createUser(database.db, { workspaceId: ctx.workspaceId })).userId;
  views = createChatViews({ runtime, secret: runtime.secret });
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

async function accountForm() {
  const created = await createTestSession(runtime, ctx.workspaceId);
  await setFormAssurance(database.db, created.sessionId, 'account', [person]);
  const target = {
    handle: 'hdl_test',
    kind: 'interaction' as const,
    humanUrl: linkUrl(runtime.linkUrl, created.token),
    handleState: 'open',
    title: 'Approve?',
  };
  return { ...created, target };
}

const input = { revision: 1, actionId: 'approve', values: { message: 'From the chat' } };

function stored(sessionId: string) {
  return database.db
    .select({ via: formAnswers.via, assurance: formAnswers.assurance, answeredByUserId: formAnswers.answeredByUserId })
    .from(formAnswers)
    .where(eq(formAnswers.sessionId, sessionId));
}

describe('a chat answer to an account form', () => {
  it("by the OAuth principal of the form's person: taken at account", async () => {
    const form = await accountForm();
    const outcome = await views.answer({ principalId: person }, form.target, input);
    expect(outcome.refused).toBeUndefined();
    expect(outcome.view.state).toBe('answered');
    expect(await stored(form.sessionId)).toEqual([{ via: 'chat', assurance: 'account', answeredByUserId: person }]);
    expect((await readSession({ ctx, sessionId: form.sessionId })).response).toMatchObject({ assurance: 'account' });
  });

  it.each([
    ['an API key', () => 'api_key:key_aaaaaaaaaaaaaaaaaaaaaaaaaa', 'ANSWERER_NOT_A_PERSON'],
    ["another member's OAuth principal", () => other, 'FORM_FOR_SOMEONE_ELSE'],
  ])('by %s: refused with its code, the form shown again, nothing written', async (_name, principal, code) => {
    const form = await accountForm();
    const outcome = await views.answer({ principalId: principal() }, form.target, input);
    expect(outcome.refused?.code).toBe(code);
    expect(outcome.view.state).toBe('open');
    expect(await stored(form.sessionId)).toEqual([]);
    expect((await readSession({ ctx, sessionId: form.sessionId })).state).toBe('waiting');
  });
});
