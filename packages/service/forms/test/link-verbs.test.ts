import { isSessError } from '@sess/core';
import { createSession, extendLink, type FormsRuntime, openLink, readSession, submitLinkAnswer } from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestSession,
  createWorkspace,
  sampleSurface,
  type TestClock,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HOUR = 3_600_000;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSessError(error)) return error.code;
    throw error;
  }
  return 'no error';
}

describe('link verbs', () => {
  let database: TestDatabase;
  let clock: TestClock;
  let runtime: FormsRuntime;
  let workspaceId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    clock = createTestClock();
    runtime = createTestFormsRuntime(database, { now: clock.now });
    ({ workspaceId } = await createWorkspace(database.db));
  });
  afterAll(async () => {
    await runtime.close();
    await database.destroy();
  });

  it('openLink shows an open interaction with its Surface and no answer', async () => {
    const created = await createTestSession(runtime, workspaceId, { expiresIn: 3600 });
    const view = await openLink(runtime, created.token);
    expect(view).toMatchObject({
      kind: 'interaction',
      sessionId: created.sessionId,
      state: 'open',
      revision: 1,
      extendable: true,
      canExtend: false,
      answer: null,
      expiresAt: created.expiresAt,
    });
    expect(view.surface).toEqual(sampleSurface());
  });

  it('openLink refuses unknown and malformed tokens with NOT_FOUND', async () => {
    expect(await codeOf(openLink(runtime, 'x'.repeat(43)))).toBe('NOT_FOUND');
    expect(await codeOf(openLink(runtime, '../etc/passwd'))).toBe('NOT_FOUND');
  });

  it('submitLinkAnswer accepts a valid answer once; the answer shows on the link and to the agent', async () => {
    const created = await createTestSession(runtime, workspaceId);
    const result = await submitLinkAnswer(runtime, created.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'Ship it' },
    });
    expect(result).toMatchObject({ ok: true, revision: 1 });
    if (!result.ok) throw new Error('not ok');
    const view = await openLink(runtime, created.token);
    expect(view).toMatchObject({
      state: 'answered',
      answer: { eventId: result.eventId, actionId: 'approve', values: { message: 'Ship it' } },
    });
    const read = await readSession({ ctx: { runtime, workspaceId }, sessionId: created.sessionId });
    expect(read).toMatchObject({
      state: 'answered',
      revision: 1,
      response: { eventId: result.eventId, values: { message: 'Ship it' } },
    });
    expect(
      await codeOf(
        submitLinkAnswer(runtime, created.token, { revision: 1, actionId: 'approve', submitted: { message: 'Again' } }),
      ),
    ).toBe('ALREADY_ANSWERED');
  });

  it('submitLinkAnswer returns the validation errors and writes nothing', async () => {
    const created = await createTestSession(runtime, workspaceId);
    const result = await submitLinkAnswer(runtime, created.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: '' },
    });
    expect(result).toEqual({ ok: false, errors: [expect.objectContaining({ field: 'message', code: 'required' })] });
    expect((await openLink(runtime, created.token)).state).toBe('open');
  });

  it('a lapsed link can be extended, up to its horizon', async () => {
    const created = await createTestSession(runtime, workspaceId, { expiresIn: 3600 });
    clock.advance(2 * HOUR);
    const lapsed = await openLink(runtime, created.token);
    expect(lapsed).toMatchObject({ state: 'lapsed', canExtend: true });
    expect(
      await codeOf(
        submitLinkAnswer(runtime, created.token, { revision: 1, actionId: 'approve', submitted: { message: 'late' } }),
      ),
    ).toBe('LINK_CLOSED');
    const agent = await readSession({ ctx: { runtime, workspaceId }, sessionId: created.sessionId });
    expect(agent.state).toBe('waiting');
    const extended = await extendLink(runtime, created.token);
    expect(extended).toMatchObject({ state: 'open', expiresAt: created.expiresAt });
    expect(new Date(extended.deadlineAt).getTime()).toBe(clock.now().getTime() + HOUR);
    clock.advance(8 * 24 * HOUR);
    expect((await openLink(runtime, created.token)).state).toBe('expired');
    expect(await codeOf(extendLink(runtime, created.token))).toBe('LINK_CLOSED');
    expect((await readSession({ ctx: { runtime, workspaceId }, sessionId: created.sessionId })).state).toBe('expired');
  });

  it('createSession refuses a lifetime over the plan ceiling, naming it', async () => {
    const error = await createSession({
      ctx: { runtime, workspaceId },
      input: { interaction: sampleSurface(), expires_in: 8 * 86_400 },
    }).catch((e: unknown) => e);
    expect(isSessError(error) && error.toBody()).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/expires_in',
      limit: 604_800,
    });
    expect(tokenOf('https://x/s/abc')).toBe('abc');
  });
});
