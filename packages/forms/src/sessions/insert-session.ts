import { hashSecret, SessError } from '@sess/core';
import type { Tx } from '@sess/db';
import { queryRows } from '@sess/db';
import type { Surface } from '@sess/surface';
import { hashSurface } from '@sess/surface';
import { type SQL, sql } from 'drizzle-orm';
import {
  type Idempotency,
  replayStored,
  resolveIdempotency,
  runIdempotent,
  storedResponse,
} from '../idempotency/run-idempotent.ts';
import { describeSeconds, type Plan, planFor } from '../model/plans.ts';
import { isoParam } from '../model/sql-values.ts';
import { EXTENDABLE_MAX_SECONDS, type FormsRuntime } from '../runtime/forms-runtime.ts';
import type { WorkspaceContext } from './context.ts';

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
export function linkTimes(runtime: FormsRuntime, now: Date, seconds: number, extendableKind: boolean) {
  const expiresAt = new Date(now.getTime() + seconds * 1000);
  const extendable = extendableKind && seconds <= EXTENDABLE_MAX_SECONDS;
  const horizonAt = extendable
    ? new Date(Math.max(now.getTime() + runtime.linkHorizonSeconds * 1000, expiresAt.getTime()))
    : null;
  return { createdAt: now, expiresAt, deadlineAt: expiresAt, horizonAt, closesAt: horizonAt ?? expiresAt, extendable };
}

export interface NewSession {
  id: string;
  workspaceId: string;
  kind: 'interaction' | 'ask';
  token: string;
  lifetimeSeconds: number;
  times: ReturnType<typeof linkTimes>;
  surface: Surface;
  ask?: { max: number; name: boolean; respondentSeconds: number | null };
}

/** The `insert … select` of a session and its revision 1, fed by `source` (a CTE name or a dummy row). */
function insertRowsSql(s: NewSession, surfaceSha256: string, gate: SQL): SQL {
  const t = s.times;
  return sql`s as (
      insert into form_sessions
        (id, workspace_id, kind, state, current_revision, link_token_hash, lifetime_seconds, extendable,
         created_at, expires_at, deadline_at, horizon_at, closes_at, ask_max, ask_name, ask_respondent_seconds)
      select ${s.id}, ${s.workspaceId}, ${s.kind}, 'open', 1, ${hashSecret(s.token)}, ${s.lifetimeSeconds}, ${t.extendable},
             ${isoParam(t.createdAt)}::timestamptz, ${isoParam(t.expiresAt)}::timestamptz, ${isoParam(t.deadlineAt)}::timestamptz,
             ${t.horizonAt ? isoParam(t.horizonAt) : null}::timestamptz, ${isoParam(t.closesAt)}::timestamptz,
             ${s.ask?.max ?? null}::int, ${s.ask?.name ?? null}::boolean, ${s.ask?.respondentSeconds ?? null}::int
       where ${gate}
      returning id),
    r as (
      insert into form_revisions (session_id, revision, workspace_id, surface, surface_sha256, created_at)
      select id, 1, ${s.workspaceId}, ${JSON.stringify(s.surface)}::jsonb, ${surfaceSha256}, ${isoParam(t.createdAt)}::timestamptz
        from s
      returning session_id)`;
}

/** Inserts the session and its revision 1 in one statement (inside the create's transaction). */
export async function insertSession(tx: Tx, s: NewSession): Promise<void> {
  await tx.execute(sql`with ${insertRowsSql(s, hashSurface(s.surface), sql`true`)} select count(*) from r`);
}

/**
 * Stores a new session with the plan's checks, at most once per idempotency key.
 *
 * A plan without an open-session limit (known from the API key) needs no lock and no count,
 * so the key claim, the session and its revision go in ONE autocommitted statement: one round
 * trip and one commit per create. Other plans run in a transaction that locks the workspace
 * row and counts its open sessions first (`admitCreate`).
 */
export async function storeNewSession<R>(
  ctx: WorkspaceContext,
  idempotency: Idempotency | undefined,
  build: (plan: Plan, now: Date) => { session: NewSession; result: R },
): Promise<R> {
  const { runtime } = ctx;
  const known = ctx.plan !== undefined ? planFor(ctx.plan) : undefined;
  if (known && known.openSessions === null) {
    const { session, result } = build(known, runtime.now());
    const surfaceSha256 = hashSurface(session.surface);
    if (!idempotency) {
      await runtime.database.db.execute(sql`with ${insertRowsSql(session, surfaceSha256, sql`true`)} select count(*) from r`);
      return result;
    }
    const resolved = resolveIdempotency(ctx.workspaceId, idempotency);
    const [row] = await queryRows<{ claimed: number }>(
      runtime.database.db,
      sql`with claim as (
            insert into idempotency_keys (workspace_id, scope, key, request_sha256, status, response, created_at)
            values (${ctx.workspaceId}, ${resolved.scope}, ${resolved.key}, ${resolved.requestSha256}, 201,
                    ${storedResponse(runtime, resolved, result)}::jsonb, ${isoParam(session.times.createdAt)}::timestamptz)
            on conflict do nothing
            returning 1 as one),
          ${insertRowsSql(session, surfaceSha256, sql`exists (select 1 from claim)`)}
          select (select count(*)::int from claim) as claimed, (select count(*)::int from r) as revisions`,
    );
    if (Number(row?.claimed) === 1) return result;
    return replayStored<R>(runtime, runtime.database.db, resolved);
  }
  const { value } = await runIdempotent(runtime, ctx.workspaceId, idempotency, async (tx) => {
    const now = runtime.now();
    const plan = await admitCreate(tx, ctx, now);
    const { session, result } = build(plan, now);
    await insertSession(tx, session);
    return result;
  });
  return value;
}
