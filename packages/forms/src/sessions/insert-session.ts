import { SessError } from '@sess/core';
import type { Tx } from '@sess/db';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { type Idempotency, resolveIdempotency } from '../idempotency/idempotency-key.ts';
import { runIdempotent } from '../idempotency/run-idempotent.ts';
import { replayStored, storedResponse } from '../idempotency/stored-response.ts';
import { EXTENDABLE_MAX_SECONDS } from '../model/lifetimes.ts';
import { describeSeconds, type Plan, planFor } from '../model/plans.ts';
import { isoParam } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import type { WorkspaceContext } from './context.ts';
import { insertSessionRows, type LinkTimes, type NewSession, type SessionRow } from './session-rows.ts';

export type { NewSession } from './session-rows.ts';

/** A lifetime asked for, and where in the arguments it was given (for the error's pointer). */
export interface Lifetime {
  seconds: number;
  field: string;
}

/** Refuses a lifetime over the plan's ceiling, naming the ceiling. */
export function checkLifetime(plan: Plan, lifetime: Lifetime): void {
  if (lifetime.seconds > plan.linkLifetimeSeconds) {
    throw new SessError(
      'INVALID_ARGUMENTS',
      `${lifetime.field.slice(1)} is ${lifetime.seconds} seconds; your plan (${plan.name}) allows links of at most ${plan.linkLifetimeSeconds} seconds (${describeSeconds(plan.linkLifetimeSeconds)}). Use a shorter ${lifetime.field.slice(1)}.`,
      { field: lifetime.field, limit: plan.linkLifetimeSeconds, length: lifetime.seconds },
    );
  }
}

/**
 * Reads the workspace's plan inside the create's transaction. A plan with an open-session limit
 * locks the workspace row (`for no key update`, which does not block the foreign-key checks of
 * concurrent inserts elsewhere), so two creates cannot both take the last place.
 */
export async function admitCreate(tx: Tx, ctx: WorkspaceContext, now: Date): Promise<Plan> {
  const known = ctx.plan !== undefined ? planFor(ctx.plan) : undefined;
  let plan = known;
  if (!known || known.openSessions !== null) {
    const [row] = await queryRows<{ plan: string }>(
      tx,
      sql`select plan from workspaces where id = ${ctx.workspaceId} for no key update`,
    );
    if (!row) throw new SessError('NOT_FOUND', `No workspace ${ctx.workspaceId}.`);
    plan = planFor(row.plan);
  }
  if (!plan) throw new Error('unreachable');
  if (plan.openSessions !== null) {
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from (
            select 1 from form_sessions
             where workspace_id = ${ctx.workspaceId} and state = 'open' and closes_at > ${isoParam(now)}::timestamptz
             limit ${plan.openSessions}) open_sessions`,
    );
    if (Number(row?.n ?? 0) >= plan.openSessions) {
      throw new SessError(
        'PLAN_LIMIT_REACHED',
        `This workspace has ${plan.openSessions} open sessions, the most its plan (${plan.name}) allows. Complete or withdraw some, or let them expire, then try again.`,
        { limit: plan.openSessions, plan: plan.name },
      );
    }
  }
  return plan;
}

/** The times of a new link (see form_sessions). */
export function linkTimes(runtime: FormsRuntime, now: Date, seconds: number, extendableKind: boolean): LinkTimes {
  const expiresAt = new Date(now.getTime() + seconds * 1000);
  const extendable = extendableKind && seconds <= EXTENDABLE_MAX_SECONDS;
  const horizonAt = extendable
    ? new Date(Math.max(now.getTime() + runtime.linkHorizonSeconds * 1000, expiresAt.getTime()))
    : null;
  return { createdAt: now, expiresAt, deadlineAt: expiresAt, horizonAt, closesAt: horizonAt ?? expiresAt, extendable };
}

/** Inserts the session and its revision 1 (inside the create's transaction). */
export async function insertSession(tx: Tx, session: NewSession): Promise<void> {
  await insertSessionRows(tx, [{ session }]);
}

/** How a create tells its workspace's owners (`FormsRuntimeOptions.apiKeyNotices`). */
export interface OwnersNotice<R> {
  /** The link the notice carries (`humanUrl`). */
  url(result: R): string;
  /** The result saying that someone will be told. */
  told(result: R): R;
}

/**
 * Whether an API key's create must tell anyone: the runtime has `apiKeyNotices` and they want it.
 * Never inside a caller's transaction: that caller writes its own notices (the hosted /mcp path).
 */
async function ownersWantNotice(ctx: WorkspaceContext): Promise<boolean> {
  const hooks = ctx.runtime.apiKeyNotices;
  return hooks !== undefined && ctx.tx === undefined && (await hooks.wanted(ctx.workspaceId));
}

/** Enqueues the owners' notice in the create's transaction; the result says whether anyone will be told. */
async function tellOwners<R>(tx: Tx, runtime: FormsRuntime, session: NewSession, result: R, notice: OwnersNotice<R>): Promise<R> {
  const told = await runtime.apiKeyNotices!.enqueue(tx, {
    workspaceId: session.workspaceId,
    sessionId: session.id,
    title: session.surface.title,
    url: notice.url(result),
    expiresAt: session.times.expiresAt,
  });
  return told ? notice.told(result) : result;
}

/**
 * Stores a new session with the plan's checks, at most once per idempotency key.
 *
 * A plan without an open-session limit (known from the API key) needs no lock and no count,
 * so the key claim, the session and its revision go in ONE autocommitted statement, shared with
 * the other creates of the same moment (`CreateBatcher`). Other plans run in a transaction
 * that locks the workspace row and counts its open sessions first (`admitCreate`). With
 * `ctx.tx` everything runs in the caller's transaction.
 *
 * `ownersNotice` (an API key's create): when the runtime's `apiKeyNotices` say someone of the
 * workspace wants to be told, the create takes the transaction and enqueues the notice in it
 * (`tellOwners`); otherwise nothing changes.
 */
export async function storeNewSession<R>(
  ctx: WorkspaceContext,
  idempotency: Idempotency | undefined,
  build: (plan: Plan, now: Date) => { session: NewSession; result: R },
  ownersNotice?: OwnersNotice<R>,
): Promise<R> {
  const { runtime } = ctx;
  void runtime.sweepIfDue();
  const known = ctx.plan !== undefined ? planFor(ctx.plan) : undefined;
  const notice = ownersNotice && (await ownersWantNotice(ctx)) ? ownersNotice : undefined;
  if (known && known.openSessions === null && !notice) {
    const { session, result } = build(known, runtime.now());
    const resolved = idempotency ? resolveIdempotency(ctx.workspaceId, idempotency) : undefined;
    const row: SessionRow = {
      session,
      claim: resolved && {
        scope: resolved.scope,
        key: resolved.key,
        requestSha256: resolved.requestSha256,
        response: storedResponse(runtime.secret, resolved, result),
      },
    };
    // Outside a caller's transaction, creates share statements with their neighbours in time.
    const stored = ctx.tx ? (await insertSessionRows(ctx.tx, [row])).has(session.id) : await runtime.creates.store(row);
    if (stored || !resolved) return result;
    return replayStored<R>(runtime.secret, ctx.tx ?? runtime.database.db, resolved);
  }
  const { value } = await runIdempotent(
    runtime,
    ctx.workspaceId,
    idempotency,
    async (tx) => {
      const now = runtime.now();
      const plan = await admitCreate(tx, ctx, now);
      const { session, result } = build(plan, now);
      await insertSession(tx, session);
      return notice ? tellOwners(tx, runtime, session, result, notice) : result;
    },
    ctx.tx,
  );
  return value;
}
