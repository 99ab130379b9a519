import {
  createAsk,
  createFormsRuntime,
  createSession,
  type FormsObserver,
  type FormsRuntime,
  readSession,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestLogger,
  createTestSession,
  createWorkspace,
  recordSecret,
  sampleAskArguments,
  sampleSurface,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { key } from '../src/test-helpers.ts';

/*
 * What the forms runtime tells its observer (apps/server's metrics): a create stored (once, not
 * on an idempotent replay), an answer recorded, and parked waits woken by an answer, with the
 * time since the answer was written (carried in its notification).
 */

const clock = createTestClock(new Date());
const told: { created: Array<[string, number]>; answered: string[]; woken: number[] } = { created: [], answered: [], woken: [] };
const observer: FormsObserver = {
  created: (kind, seconds) => told.created.push([kind, seconds]),
  answered: (kind) => told.answered.push(kind),
  woken: (seconds) => told.woken.push(seconds),
};

let database: TestDatabase;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 2 });
  runtime = createFormsRuntime({
    database,
    publicUrl: TEST_PUBLIC_URL,
    secret: TEST_SECRET,
    logger: createTestLogger(),
    now: clock.now,
    waitClock: clock,
    observer,
  });
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});
beforeEach(() => {
  told.created = [];
  told.answered = [];
  told.woken = [];
});

describe('the forms observer', () => {
  it('is told of each create stored, once: an idempotent replay is not a create', async () => {
    const k = key();
    await createSession({ ctx, input: { interaction: sampleSurface('One') }, idempotencyKey: k });
    await createSession({ ctx, input: { interaction: sampleSurface('One') }, idempotencyKey: k });
    await createAsk({ ctx, input: sampleAskArguments({ max: 3 }) });
    expect(told.created.map(([kind]) => kind)).toEqual(['interaction', 'ask']);
    for (const [, seconds] of told.created) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it('is told of an answer recorded, and of the parked wait it woke, with the time since the answer was written', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const waiting = readSession({ ctx, sessionId: s.sessionId, waitMs: 30_000 });
    await expect.poll(() => clock.pending().length, { timeout: 5000, interval: 5 }).toBe(1);
    const result = await submitLinkAnswer(runtime, s.token, { revision: 1, actionId: 'approve', submitted: { message: 'ok' } });
    expect(result.ok).toBe(true);
    expect((await waiting).state).toBe('answered');
    expect(told.answered).toEqual(['interaction']);
    expect(told.woken).toHaveLength(1);
    expect(told.woken[0]).toBeGreaterThanOrEqual(0);
  });

  it("is told of an Ask respondent's answer as an ask's", async () => {
    const created = await createAsk({ ctx, input: sampleAskArguments({ max: 2 }) });
    recordSecret(created.humanUrl, 'link');
    recordSecret(tokenOf(created.humanUrl), 'link');
    const started = await startRespondent(runtime, tokenOf(created.humanUrl));
    recordSecret(started.respondentToken, 'link');
    const result = await submitLinkAnswer(runtime, started.respondentToken, { revision: 1, submitted: { place: 'Beach' } });
    expect(result.ok).toBe(true);
    expect(told.answered).toEqual(['ask']);
  });

  it('is not told of a wake by anything but an answer (a withdraw), nor of an answer refused', async () => {
    const s = await createTestSession(runtime, ctx.workspaceId);
    const waiting = readSession({ ctx, sessionId: s.sessionId, waitMs: 30_000 });
    await expect.poll(() => clock.pending().length, { timeout: 5000, interval: 5 }).toBe(1);
    await withdrawSession({ ctx, sessionId: s.sessionId });
    expect((await waiting).state).toBe('withdrawn');
    await expect(
      submitLinkAnswer(runtime, s.token, { revision: 1, actionId: 'approve', submitted: { message: 'ok' } }),
    ).rejects.toMatchObject({ code: 'LINK_CLOSED' });
    expect(told.woken).toEqual([]);
    expect(told.answered).toEqual([]);
    expect(told.created.map(([kind]) => kind)).toEqual(['interaction']);
  });
});
