import { GENESIS_HASH, verifyEventChain } from '@sess/core';
import { queryRows } from '@sess/db';
import { exportEvents, readTimeline, startEventWorker, sweepClockEvents } from '@sess/events';
import {
  completeSession,
  createAsk,
  extendLink,
  type FormsRuntime,
  publishSession,
  recordLinkOpened,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createTestSession,
  createWorkspace,
  sampleAskArguments,
  sampleSurface,
  type TestClock,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const HOUR = 3_600_000;
let database: TestDatabase;
let runtime: FormsRuntime;
let clock: TestClock;
let ctx: WorkspaceContext;
let worker: ReturnType<typeof startEventWorker>;
let keyNumber = 0;
const key = () => `events-test-${++keyNumber}`;

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 10 });
  clock = createTestClock();
  runtime = createTestFormsRuntime(database, { now: clock.now });
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
  worker = startEventWorker({ database, logger: createTestLogger(), now: clock.now, background: false });
});
afterAll(async () => {
  await worker.close();
  await runtime.close();
  await database.destroy();
});

async function timeline(sessionId: string, workspaceId = ctx.workspaceId) {
  const page = await readTimeline(database.db, { workspaceId, sessionId }, { after: null, limit: 500 });
  return page?.events ?? null;
}
const types = async (sessionId: string) => (await timeline(sessionId))?.map((e) => e.type);

async function exportAll(workspaceId = ctx.workspaceId): Promise<string[]> {
  const lines: string[] = [];
  for await (const chunk of exportEvents(database.db, {
    workspaceId,
    since: new Date(0),
    until: new Date('9999-01-01T00:00:00Z'),
  })) {
    for (const event of chunk) lines.push(JSON.stringify(event));
  }
  return lines;
}

describe('one event per transition, in the change’s own transaction', () => {
  it('an interaction: created, opened once, answered, published, answered, completed', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    await recordLinkOpened(runtime, created.sessionId);
    clock.advance(1000);
    await recordLinkOpened(runtime, created.sessionId);
    const first = await submitLinkAnswer(runtime, created.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'ok' },
    });
    if (!first.ok) throw new Error('refused');
    await publishSession({
      ctx,
      sessionId: created.sessionId,
      expectedRevision: 1,
      idempotencyKey: key(),
      input: { response_event_id: first.eventId, interaction: sampleSurface('And now?') },
    });
    const second = await submitLinkAnswer(runtime, created.token, {
      revision: 2,
      actionId: 'approve',
      submitted: { message: 'yes' },
    });
    if (!second.ok) throw new Error('refused');
    await completeSession({
      ctx,
      sessionId: created.sessionId,
      expectedRevision: 2,
      idempotencyKey: key(),
      input: { response_event_id: second.eventId },
    });
    const events = await timeline(created.sessionId);
    expect(events?.map((e) => [e.type, e.revision])).toEqual([
      ['created', 1],
      ['opened', 1],
      ['answered', 1],
      ['published', 2],
      ['answered', 2],
      ['completed', 2],
    ]);
    const answered = events?.filter((e) => e.type === 'answered');
    expect(answered?.map((e) => e.responseEventId)).toEqual([first.eventId, second.eventId]);
    expect(answered?.every((e) => e.assurance === 'link' && e.respondentId === null)).toBe(true);
    // What an event never holds: the form's text, the answer, the link.
    const text = JSON.stringify(events);
    for (const secret of ['And now?', created.token, '"yes"', 'Approve this commit']) expect(text).not.toContain(secret);
  });

  it('a withdrawn form: created, withdrawn; withdrawing again writes nothing', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    await withdrawSession({ ctx, sessionId: created.sessionId });
    await withdrawSession({ ctx, sessionId: created.sessionId });
    expect(await types(created.sessionId)).toEqual(['created', 'withdrawn']);
  });

  it('a refused answer writes no event', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    const refused = await submitLinkAnswer(runtime, created.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: '' },
    });
    expect(refused.ok).toBe(false);
    expect(await types(created.sessionId)).toEqual(['created']);
  });

  it('a rolled-back change leaves no event behind', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`update form_sessions set state = 'withdrawn', withdrawn_at = now() where id = ${created.sessionId}`);
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    expect(await types(created.sessionId)).toEqual(['created']);
  });

  it('an Ask: created, started and answered per respondent, closed when full', async () => {
    const ask = await createAsk({ ctx, input: sampleAskArguments({ max: 2 }) });
    const token = tokenOf(ask.humanUrl);
    const respondents = [];
    for (const _ of [1, 2]) {
      const started = await startRespondent(runtime, token);
      respondents.push(started.respondentId);
      const answered = await submitLinkAnswer(runtime, started.respondentToken, { revision: 1, submitted: { place: 'Beach' } });
      expect(answered.ok).toBe(true);
    }
    const events = await timeline(ask.askId);
    expect(events?.map((e) => [e.type, e.respondentId])).toEqual([
      ['created', null],
      ['started', respondents[0]],
      ['answered', respondents[0]],
      ['started', respondents[1]],
      ['answered', respondents[1]],
      ['closed', null],
    ]);
    expect(events?.every((e) => e.kind === 'ask')).toBe(true);
    // Closed when the last answer came, not at the Ask's end.
    expect(events?.at(-1)?.at).toBe(events?.at(-2)?.at);
  });
});

describe('the clock’s events', () => {
  it('lapsed at the deadline, extended, lapsed again, expired at the end; each once', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId, { expiresIn: 3600 });
    const deadline = new Date(clock.now().getTime() + HOUR).toISOString();
    clock.advance(2 * HOUR);
    await sweepClockEvents(database.db, clock.now());
    await sweepClockEvents(database.db, clock.now());
    expect(await types(created.sessionId)).toEqual(['created', 'lapsed']);
    expect((await timeline(created.sessionId))?.[1]?.at).toBe(deadline);
    await extendLink(runtime, created.token);
    clock.advance(2 * HOUR);
    await sweepClockEvents(database.db, clock.now());
    clock.advance(9 * 24 * HOUR);
    await sweepClockEvents(database.db, clock.now());
    await sweepClockEvents(database.db, clock.now());
    expect(await types(created.sessionId)).toEqual(['created', 'lapsed', 'extended', 'lapsed', 'expired']);
  });

  it('an answered interaction neither lapses nor expires', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId, { expiresIn: 3600 });
    const answer = await submitLinkAnswer(runtime, created.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'ok' },
    });
    expect(answer.ok).toBe(true);
    clock.advance(30 * 24 * HOUR);
    await sweepClockEvents(database.db, clock.now());
    expect(await types(created.sessionId)).toEqual(['created', 'answered']);
    const [row] = await queryRows<{ clock_at: unknown }>(
      database.db,
      sql`select clock_at from form_sessions where id = ${created.sessionId}`,
    );
    expect(row?.clock_at).toBeNull();
  });
});

describe('the chain', () => {
  it('seals every event in order; the export verifies; an edit, a removal or a move is caught', async () => {
    await worker.runOnce();
    const lines = await exportAll();
    expect(lines.length).toBeGreaterThan(20);
    const first = JSON.parse(lines[0]!) as { seq: number; prevHash: string };
    expect(first).toMatchObject({ seq: 1, prevHash: GENESIS_HASH });
    const check = verifyEventChain(lines);
    expect(check).toMatchObject({ ok: true, events: lines.length, firstSeq: 1, lastSeq: lines.length });

    const edited = [...lines];
    edited[3] = edited[3]!.replace(/"type":"[a-z]+"/, '"type":"withdrawn"');
    expect(verifyEventChain(edited).broken).toMatchObject({ line: 4, problem: 'hash_mismatch' });

    const removed = lines.filter((_, i) => i !== 5);
    expect(verifyEventChain(removed).broken).toMatchObject({ line: 6, problem: 'seq_gap' });

    // A line rewritten whole (its hash made again) still breaks the next one's link.
    const forged = JSON.parse(lines[2]!) as Record<string, unknown>;
    forged.at = '2020-01-01T00:00:00.000Z';
    const { eventHash } = await import('@sess/core');
    forged.hash = eventHash(forged as never);
    const reforged = [...lines];
    reforged[2] = JSON.stringify(forged);
    expect(verifyEventChain(reforged).broken).toMatchObject({ line: 4, problem: 'wrong_previous' });
  });

  it('a second workspace has its own chain from 1; neither timeline shows the other’s forms', async () => {
    const other = (await createWorkspace(database.db, { plan: 'pro' })).workspaceId;
    const mine = await createTestSession(runtime, ctx.workspaceId);
    const theirs = await createTestSession(runtime, other);
    await worker.runOnce();
    const lines = await exportAll(other);
    expect(lines.map((l) => (JSON.parse(l) as { seq: number; sessionId: string }).seq)).toEqual([1]);
    expect(verifyEventChain(lines).ok).toBe(true);
    expect(await timeline(theirs.sessionId)).toBeNull();
    expect(await timeline(mine.sessionId, other)).toBeNull();
    // Splicing another workspace's line into a chain is caught.
    const mixed = [...(await exportAll()), ...lines];
    expect(verifyEventChain(mixed).broken).toMatchObject({ problem: 'other_workspace' });
  });

  it('an export of a later range starts mid-chain and still verifies; pages of a timeline join up', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    clock.advance(4000);
    await withdrawSession({ ctx, sessionId: created.sessionId });
    await worker.runOnce();
    const since = new Date(clock.now().getTime() - 1);
    const lines: string[] = [];
    for await (const chunk of exportEvents(database.db, {
      workspaceId: ctx.workspaceId,
      since,
      until: new Date('9999-01-01T00:00:00Z'),
    })) {
      for (const event of chunk) lines.push(JSON.stringify(event));
    }
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(verifyEventChain(lines).ok).toBe(true);
    const onePage = await readTimeline(
      database.db,
      { workspaceId: ctx.workspaceId, sessionId: created.sessionId },
      { after: null, limit: 1 },
    );
    expect(onePage?.events.map((e) => e.type)).toEqual(['created']);
    const cursor = onePage?.nextCursor;
    expect(cursor).toMatch(/^p\d+$/);
    const next = await readTimeline(
      database.db,
      { workspaceId: ctx.workspaceId, sessionId: created.sessionId },
      { after: Number(cursor?.slice(1)), limit: 1 },
    );
    expect(next?.events.map((e) => e.type)).toEqual(['withdrawn']);
    expect(next?.nextCursor).toBeNull();
  });

  it('two replicas sealing at once keep one unbroken chain', async () => {
    const { workspaceId } = await createWorkspace(database.db, { plan: 'pro' });
    await Promise.all(Array.from({ length: 30 }, () => createTestSession(runtime, workspaceId)));
    const other = startEventWorker({ database, logger: createTestLogger(), now: clock.now, background: false });
    await Promise.all([worker.runOnce(), other.runOnce(), worker.runOnce(), other.runOnce()]);
    await other.close();
    const lines = await exportAll(workspaceId);
    expect(lines).toHaveLength(30);
    expect(verifyEventChain(lines)).toMatchObject({ ok: true, firstSeq: 1, lastSeq: 30 });
  });

  it('one round seals the events of many workspaces, and two replicas at once leave every chain unbroken', async () => {
    const workspaces = await Promise.all(
      Array.from({ length: 6 }, async () => (await createWorkspace(database.db, { plan: 'pro' })).workspaceId),
    );
    await Promise.all(workspaces.flatMap((id) => Array.from({ length: 5 }, () => createTestSession(runtime, id))));
    const other = startEventWorker({ database, logger: createTestLogger(), now: clock.now, background: false });
    const [a, b] = await Promise.all([worker.runOnce(), other.runOnce()]);
    await other.close();
    // Every event sealed exactly once, by one replica or the other.
    expect(a + b).toBeGreaterThanOrEqual(30);
    const [left] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from interaction_events where seq is null and workspace_id in (select json_array_elements_text(${JSON.stringify(workspaces)}::json))`,
    );
    expect(left?.n).toBe(0);
    for (const workspaceId of workspaces) {
      const lines = await exportAll(workspaceId);
      expect(lines).toHaveLength(5);
      expect(verifyEventChain(lines)).toMatchObject({ ok: true, firstSeq: 1, lastSeq: 5 });
    }
  });

  it('every form has exactly one created event and every answer exactly one answered event', async () => {
    const [row] = await queryRows<{ sessions: number; created: number; answers: number; answered: number }>(
      database.db,
      sql`select (select count(*)::int from form_sessions where workspace_id = ${ctx.workspaceId}) as sessions,
                 (select count(*)::int from interaction_events where workspace_id = ${ctx.workspaceId} and type = 'created') as created,
                 (select count(*)::int from form_answers where workspace_id = ${ctx.workspaceId}) as answers,
                 (select count(distinct response_event_id)::int from interaction_events
                   where workspace_id = ${ctx.workspaceId} and type = 'answered') as answered`,
    );
    expect(row?.created).toBe(row?.sessions);
    expect(row?.answered).toBe(row?.answers);
  });
});
