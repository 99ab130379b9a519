import { isId } from '@sess/core';
import { formRevisions, formSessions, idempotencyKeys, queryRows } from '@sess/db';
import {
  completeSession,
  createSession,
  type FormsRuntime,
  listSessions,
  openLink,
  publishSession,
  readSession,
  submitLinkAnswer,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import { hashSurface } from '@sess/surface';
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
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key, refusal } from '../src/test-helpers.ts';

let database: TestDatabase;
let clock: TestClock;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;
let other: WorkspaceContext;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = createTestClock();
  runtime = createTestFormsRuntime(database, { now: clock.now });
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
  other = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

/** A session answered at its current revision; returns the answer's event id. */
async function answered(surfaceTitle = 'Approve this commit?') {
  const created = await createTestSession(runtime, ctx.workspaceId, { surface: sampleSurface(surfaceTitle) });
  const result = await submitLinkAnswer(runtime, created.token, {
    revision: 1,
    actionId: 'approve',
    submitted: { message: 'ok' },
  });
  if (!result.ok) throw new Error('answer refused');
  return { ...created, eventId: result.eventId };
}

async function countRows(table: 'form_sessions' | 'form_revisions' | 'idempotency_keys', workspaceId: string) {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where workspace_id = ${workspaceId}`,
  );
  return Number(row?.n);
}

describe('a record keeps the order the agent wrote', () => {
  // jsonb would store these by length, then bytes: mid, zeta, alpha.
  const ordered = (title: string) => {
    const surface = sampleSurface(title);
    const record = surface.source.components[0]!;
    if (record.type !== 'record') throw new Error('the sample starts with a record');
    record.fields = { zeta: 'last letter', alpha: 'first letter', mid: 'in between' };
    return surface;
  };
  const keysOf = (surface: { source: { components: Array<{ type: string; fields?: object }> } }) =>
    Object.keys(surface.source.components.find((c) => c.type === 'record')!.fields!);

  it.each(['pro', 'enterprise'])(
    'on the page, in storage and in the hash, from a create on a %s plan (one transaction, or the group commit) and a publish',
    async (plan) => {
      const workspaceId = (await createWorkspace(database.db, { plan })).workspaceId;
      const first = ordered('Check these');
      const created = await createSession({ ctx: { runtime, workspaceId, plan }, input: { interaction: first } });
      expect(created.surfaceSha256).toBe(hashSurface(first));
      const token = tokenOf(created.humanUrl);
      expect(keysOf((await openLink(runtime, token)).surface)).toEqual(['zeta', 'alpha', 'mid']);
      const [stored] = await queryRows<{ text: string }>(
        database.db,
        sql`select surface::text as text from form_revisions where session_id = ${created.sessionId}`,
      );
      expect(stored!.text.indexOf('"zeta"')).toBeLessThan(stored!.text.indexOf('"alpha"'));

      const answer = await submitLinkAnswer(runtime, token, { revision: 1, actionId: 'approve', submitted: { message: 'ok' } });
      if (!answer.ok) throw new Error('refused');
      const next = ordered('And these?');
      const published = await publishSession({
        ctx: { runtime, workspaceId, plan },
        sessionId: created.sessionId,
        expectedRevision: 1,
        idempotencyKey: key(),
        input: { response_event_id: answer.eventId, interaction: next },
      });
      expect(published.surfaceSha256).toBe(hashSurface(next));
      expect(keysOf((await openLink(runtime, token)).surface)).toEqual(['zeta', 'alpha', 'mid']);
    },
  );

  it('hashes the order: the same rows in another order are another surface', () => {
    const reordered = ordered('Check these');
    (reordered.source.components[0] as { fields: Record<string, string> }).fields = {
      alpha: 'first letter',
      mid: 'in between',
      zeta: 'last letter',
    };
    expect(hashSurface(reordered)).not.toBe(hashSurface(ordered('Check these')));
  });
});

describe('createSession', () => {
  it('creates revision 1 with a 256-bit link of which only the hash is stored', async () => {
    const created = await createSession({ ctx, input: { interaction: sampleSurface(), expires_in: 600 } });
    expect(isId('session', created.sessionId)).toBe(true);
    expect(created).toMatchObject({ revision: 1, state: 'waiting', kind: 'interaction', extendable: true });
    expect(created.humanUrl).toMatch(/^https:\/\/sess\.test\/s\/[A-Za-z0-9_-]{43}$/);
    expect(created.expiresAt).toBe(new Date(clock.now().getTime() + 600_000).toISOString());
    expect(created.surfaceSha256).toBe(hashSurface(sampleSurface()));
    const [row] = await database.db.select().from(formSessions).where(eq(formSessions.id, created.sessionId));
    const token = tokenOf(created.humanUrl);
    expect(JSON.stringify(row)).not.toContain(token);
    const [revision] = await database.db.select().from(formRevisions).where(eq(formRevisions.sessionId, created.sessionId));
    expect(revision?.surface).toEqual(sampleSurface());
  });

  it('defaults to 20 hours, extendable to the 7-day horizon; longer links are not extendable', async () => {
    const short = await createSession({ ctx, input: { interaction: sampleSurface() } });
    expect(Date.parse(short.expiresAt) - clock.now().getTime()).toBe(20 * 3_600_000);
    expect(Date.parse(short.horizonAt!) - clock.now().getTime()).toBe(7 * 86_400_000);
    const long = await createSession({ ctx, input: { interaction: sampleSurface(), expires_in: 20 * 3600 + 1 } });
    expect(long).toMatchObject({ extendable: false, horizonAt: null });
  });

  it('refuses a bad Surface with a pointer and creates nothing', async () => {
    const before = await countRows('form_sessions', ctx.workspaceId);
    const bad = sampleSurface();
    (bad.actions![0] as { label: string }).label = 'x'.repeat(25);
    expect(await refusal(createSession({ ctx, input: { interaction: bad } }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/interaction/actions/0/label',
      limit: 24,
      length: 25,
    });
    expect(await refusal(createSession({ ctx, input: { interaction: sampleSurface(), extra: 1 } }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/extra',
    });
    expect(await refusal(createSession({ ctx, input: { interaction: sampleSurface(), expires_in: 29 } }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/expires_in',
    });
    expect(await countRows('form_sessions', ctx.workspaceId)).toBe(before);
  });

  it('refuses a lifetime over the plan ceiling and names the ceiling', async () => {
    const body = await refusal(createSession({ ctx, input: { interaction: sampleSurface(), expires_in: 31 * 86_400 } }));
    expect(body).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/expires_in', limit: 30 * 86_400 });
    expect(body.message).toContain('30 days');
  });

  it('refuses a create at the plan’s open-session limit with PLAN_LIMIT_REACHED, creating nothing, also when racing', async () => {
    const { workspaceId } = await createWorkspace(database.db, { plan: 'free' });
    const free = { runtime, workspaceId };
    const results = await Promise.allSettled(
      Array.from({ length: 110 }, () => createSession({ ctx: free, input: { interaction: sampleSurface(), expires_in: 60 } })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(100);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(10);
    expect((refused[0] as PromiseRejectedResult).reason.code).toBe('PLAN_LIMIT_REACHED');
    expect(await countRows('form_sessions', workspaceId)).toBe(100);
    // Lapsed links can still be extended, so they count until their horizon; expired ones do not.
    clock.advance(61_000);
    expect(await refusal(createSession({ ctx: free, input: { interaction: sampleSurface(), expires_in: 60 } }))).toMatchObject({
      code: 'PLAN_LIMIT_REACHED',
      limit: 100,
    });
    clock.advance(7 * 86_400_000);
    await createSession({ ctx: free, input: { interaction: sampleSurface(), expires_in: 60 } });
  });

  it('replays an identical create with the same idempotency key, refuses the key with another body', async () => {
    const k = key();
    const first = await createSession({ ctx, input: { interaction: sampleSurface('One') }, idempotencyKey: k });
    const again = await createSession({ ctx, input: { interaction: sampleSurface('One') }, idempotencyKey: k });
    expect(again).toEqual(first);
    expect(await refusal(createSession({ ctx, input: { interaction: sampleSurface('Two') }, idempotencyKey: k }))).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    // The stored response holds the link sealed, never in clear.
    const rows = await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, k));
    expect(JSON.stringify(rows)).not.toContain(tokenOf(first.humanUrl));
  });
});

describe('createSession on a plan without an open-session limit (one statement)', () => {
  it('creates, replays an identical request, refuses the key with another body, and races safely', async () => {
    const { workspaceId } = await createWorkspace(database.db, { plan: 'enterprise' });
    const fast = { runtime, workspaceId, plan: 'enterprise' };
    const created = await createSession({ ctx: fast, input: { interaction: sampleSurface() } });
    expect(await readSession({ ctx: fast, sessionId: created.sessionId })).toMatchObject({ state: 'waiting', revision: 1 });
    const k = key();
    const input = { interaction: sampleSurface('Once') };
    const results = await Promise.all(Array.from({ length: 5 }, () => createSession({ ctx: fast, input, idempotencyKey: k })));
    for (const r of results) expect(r).toEqual(results[0]);
    expect(await countRows('form_sessions', workspaceId)).toBe(2);
    expect(
      await refusal(createSession({ ctx: fast, input: { interaction: sampleSurface('Twice') }, idempotencyKey: k })),
    ).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(
      await refusal(createSession({ ctx: fast, input: { interaction: sampleSurface(), expires_in: 91 * 86_400 } })),
    ).toMatchObject({
      field: '/expires_in',
      limit: 90 * 86_400,
    });
    expect(await countRows('form_sessions', workspaceId)).toBe(2);
    expect(await countRows('form_revisions', workspaceId)).toBe(2);
  });
});

describe('readSession', () => {
  it('reads waiting, then answered with the answer and its receipt', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    expect(await readSession({ ctx, sessionId: created.sessionId })).toMatchObject({
      state: 'waiting',
      revision: 1,
      response: null,
    });
    const result = await submitLinkAnswer(runtime, created.token, { revision: 1, actionId: 'stop', submitted: {} });
    expect(result.ok).toBe(true);
    const read = await readSession({ ctx, sessionId: created.sessionId });
    expect(read).toMatchObject({ state: 'answered', response: { actionId: 'stop', values: {}, revision: 1 } });
    expect(read.response?.receipt.split('.')).toHaveLength(3);
  });

  it('is NOT_FOUND for another workspace’s session and for an unknown id', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    expect(await refusal(readSession({ ctx: other, sessionId: created.sessionId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(readSession({ ctx, sessionId: 'ses_nope' }))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a bad wait or revision', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    expect(await refusal(readSession({ ctx, sessionId: created.sessionId, waitMs: 45_001 }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/wait_ms',
    });
    expect(await refusal(readSession({ ctx, sessionId: created.sessionId, revision: 2 }))).toMatchObject({
      code: 'REVISION_MISMATCH',
      currentRevision: 1,
    });
  });
});

describe('publishSession and completeSession', () => {
  it('publish shows the next Surface at revision + 1 on the same link; complete closes it', async () => {
    const s = await answered();
    const next = sampleSurface('And the tag?');
    const published = await publishSession({
      ctx,
      sessionId: s.sessionId,
      expectedRevision: 1,
      idempotencyKey: key(),
      input: { response_event_id: s.eventId, interaction: next },
    });
    expect(published).toMatchObject({ revision: 2, state: 'waiting', surfaceSha256: hashSurface(next), response: null });
    const view = await openLink(runtime, s.token);
    expect(view).toMatchObject({ state: 'open', revision: 2, answer: null });
    expect(view.surface.title).toBe('And the tag?');
    // The old revision keeps its answer.
    const old = await readSession({ ctx, sessionId: s.sessionId, revision: 1 });
    expect(old).toMatchObject({ revision: 2, state: 'waiting', response: { eventId: s.eventId, revision: 1 } });

    const second = await submitLinkAnswer(runtime, s.token, { revision: 2, actionId: 'approve', submitted: { message: 'v2' } });
    if (!second.ok) throw new Error('refused');
    const completed = await completeSession({
      ctx,
      sessionId: s.sessionId,
      expectedRevision: 2,
      idempotencyKey: key(),
      input: { response_event_id: second.eventId },
    });
    expect(completed).toMatchObject({ state: 'completed', revision: 2, response: { eventId: second.eventId } });
    expect(await openLink(runtime, s.token)).toMatchObject({ state: 'completed', answer: { eventId: second.eventId } });
    expect(await readSession({ ctx, sessionId: s.sessionId })).toMatchObject({ state: 'completed' });
    expect(
      await refusal(submitLinkAnswer(runtime, s.token, { revision: 2, actionId: 'approve', submitted: { message: 'late' } })),
    ).toMatchObject({ code: 'LINK_CLOSED', state: 'completed' });
  });

  it('replays an identical publish, refuses the key with another body, changes nothing on a refusal', async () => {
    const s = await answered();
    const k = key();
    const input = { response_event_id: s.eventId, interaction: sampleSurface('Next') };
    const first = await publishSession({ ctx, sessionId: s.sessionId, expectedRevision: 1, idempotencyKey: k, input });
    const replay = await publishSession({ ctx, sessionId: s.sessionId, expectedRevision: 1, idempotencyKey: k, input });
    expect(replay).toEqual(first);
    expect(
      await refusal(
        publishSession({
          ctx,
          sessionId: s.sessionId,
          expectedRevision: 1,
          idempotencyKey: k,
          input: { ...input, interaction: sampleSurface('Other') },
        }),
      ),
    ).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    // Another key on the stale revision: a conflict naming the current revision.
    const stale = await refusal(
      publishSession({ ctx, sessionId: s.sessionId, expectedRevision: 1, idempotencyKey: key(), input }),
    );
    expect(stale).toMatchObject({ code: 'REVISION_MISMATCH', currentRevision: 2 });
    expect(stale.message).toContain('revision 2');
    expect((await readSession({ ctx, sessionId: s.sessionId })).revision).toBe(2);
  });

  it('concurrent identical publishes with one key publish once and return the same result', async () => {
    const s = await answered();
    const k = key();
    const input = { response_event_id: s.eventId, interaction: sampleSurface('Once') };
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        publishSession({ ctx, sessionId: s.sessionId, expectedRevision: 1, idempotencyKey: k, input }),
      ),
    );
    for (const r of results) expect(r).toEqual(results[0]);
    expect((await readSession({ ctx, sessionId: s.sessionId })).revision).toBe(2);
  });

  it('refuses without an answer, with another event, on another workspace, with bad input', async () => {
    const fresh = await createTestSession(runtime, ctx.workspaceId);
    const publish = (c: WorkspaceContext, sessionId: string, input: unknown, expectedRevision = 1) =>
      publishSession({ ctx: c, sessionId, expectedRevision, idempotencyKey: key(), input });
    expect(
      await refusal(publish(ctx, fresh.sessionId, { response_event_id: 'evt_x', interaction: sampleSurface() })),
    ).toMatchObject({
      code: 'INVALID_STATE',
    });
    const s = await answered();
    expect(
      await refusal(publish(ctx, s.sessionId, { response_event_id: 'evt_other', interaction: sampleSurface() })),
    ).toMatchObject({
      code: 'RESPONSE_MISMATCH',
    });
    expect(
      await refusal(publish(other, s.sessionId, { response_event_id: s.eventId, interaction: sampleSurface() })),
    ).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await refusal(publish(ctx, s.sessionId, { response_event_id: s.eventId }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/interaction',
    });
    expect(
      await refusal(publish(ctx, s.sessionId, { response_event_id: s.eventId, interaction: sampleSurface(), nope: true })),
    ).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/nope' });
    expect(
      await refusal(publish(ctx, s.sessionId, { response_event_id: s.eventId, interaction: { ...sampleSurface(), title: '' } })),
    ).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/interaction/title' });
    expect(
      await refusal(
        completeSession({
          ctx,
          sessionId: s.sessionId,
          expectedRevision: 3,
          idempotencyKey: key(),
          input: { response_event_id: s.eventId },
        }),
      ),
    ).toMatchObject({ code: 'REVISION_MISMATCH', currentRevision: 1 });
    expect((await readSession({ ctx, sessionId: s.sessionId })).state).toBe('answered');
  });

  it('an answer accepted before the end stays answered after it; complete still works; publish is refused', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId, { expiresIn: 60 });
    const result = await submitLinkAnswer(runtime, created.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'in time' },
    });
    if (!result.ok) throw new Error('refused');
    clock.advance(8 * 86_400_000);
    expect(await readSession({ ctx, sessionId: created.sessionId })).toMatchObject({ state: 'answered' });
    expect(
      await refusal(
        publishSession({
          ctx,
          sessionId: created.sessionId,
          expectedRevision: 1,
          idempotencyKey: key(),
          input: { response_event_id: result.eventId, interaction: sampleSurface() },
        }),
      ),
    ).toMatchObject({ code: 'INVALID_STATE', state: 'expired' });
    const done = await completeSession({
      ctx,
      sessionId: created.sessionId,
      expectedRevision: 1,
      idempotencyKey: key(),
      input: { response_event_id: result.eventId },
    });
    expect(done.state).toBe('completed');
  });
});

describe('withdrawSession', () => {
  it('stops the link, is idempotent, and refuses a completed session', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    const first = await withdrawSession({ ctx, sessionId: created.sessionId, idempotencyKey: key() });
    const second = await withdrawSession({ ctx, sessionId: created.sessionId, idempotencyKey: key() });
    expect(second).toEqual(first);
    expect(first).toMatchObject({ state: 'withdrawn', kind: 'interaction' });
    expect(await openLink(runtime, created.token)).toMatchObject({ state: 'withdrawn' });
    expect(await readSession({ ctx, sessionId: created.sessionId })).toMatchObject({ state: 'withdrawn' });
    expect(
      await refusal(submitLinkAnswer(runtime, created.token, { revision: 1, actionId: 'approve', submitted: { message: 'x' } })),
    ).toMatchObject({ code: 'LINK_CLOSED', state: 'withdrawn' });
    expect(await refusal(withdrawSession({ ctx: other, sessionId: created.sessionId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(withdrawSession({ ctx, sessionId: created.sessionId, input: { why: 'x' } }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/why',
    });

    const s = await answered();
    await completeSession({
      ctx,
      sessionId: s.sessionId,
      expectedRevision: 1,
      idempotencyKey: key(),
      input: { response_event_id: s.eventId },
    });
    expect(await refusal(withdrawSession({ ctx, sessionId: s.sessionId }))).toMatchObject({ code: 'INVALID_STATE' });
  });
});

describe('listSessions', () => {
  it('lists newest first with the status of now, filters by status, pages with a cursor, and stays in its workspace', async () => {
    const { workspaceId } = await createWorkspace(database.db, { plan: 'pro' });
    const mine = { runtime, workspaceId };
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      ids.push((await createTestSession(runtime, workspaceId, { surface: sampleSurface(`Q${i}`), expiresIn: 3600 })).sessionId);
    }
    const first = await listSessions({ ctx: mine, limit: 2 });
    expect(first.sessions.map((s) => s.sessionId)).toEqual([ids[4], ids[3]]);
    expect(first.sessions[0]).toMatchObject({ status: 'waiting', title: 'Q4', kind: 'interaction', revision: 1 });
    const second = await listSessions({ ctx: mine, limit: 2, cursor: first.nextCursor! });
    expect(second.sessions.map((s) => s.sessionId)).toEqual([ids[2], ids[1]]);
    const third = await listSessions({ ctx: mine, limit: 2, cursor: second.nextCursor! });
    expect(third).toMatchObject({ nextCursor: null });
    expect(third.sessions.map((s) => s.sessionId)).toEqual([ids[0]]);

    await withdrawSession({ ctx: mine, sessionId: ids[0]! });
    expect((await listSessions({ ctx: mine, status: ['withdrawn'] })).sessions.map((s) => s.sessionId)).toEqual([ids[0]]);
    clock.advance(8 * 86_400_000);
    expect((await listSessions({ ctx: mine, status: ['expired'] })).sessions).toHaveLength(4);
    expect((await listSessions({ ctx: other })).sessions.map((s) => s.sessionId)).not.toContain(ids[0]);
    expect(await refusal(listSessions({ ctx: mine, status: ['bogus'] }))).toMatchObject({ field: '/status/0' });
    expect(await refusal(listSessions({ ctx: mine, cursor: 'nope' }))).toMatchObject({ field: '/cursor' });
    expect(await refusal(listSessions({ ctx: mine, limit: 0 }))).toMatchObject({ field: '/limit' });
  });
});
