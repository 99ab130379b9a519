import { SessError } from '@sess/core';
import { type DbOrTx, lockOpenCounts, queryRows, type Tx, workspaceOpenKey } from '@sess/db';
import { sql } from 'drizzle-orm';
import { type Idempotency, resolveIdempotency } from '../idempotency/idempotency-key.ts';
import { runIdempotent } from '../idempotency/run-idempotent.ts';
import { replayStored, storedResponse } from '../idempotency/stored-response.ts';
import { EXTENDABLE_MAX_SECONDS } from '../model/lifetimes.ts';
import { describeSeconds, type Plan, planFor } from '../model/plans.ts';
import { isoParam } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import type { WorkspaceContext } from './context.ts';
import { FLOOR_MOVED, FloorMovedError } from './form-audience.ts';
import { type CreateGate, insertSessionRows, type LinkTimes, type NewSession, type SessionRow } from './session-rows.ts';

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

/** The workspace's plan (`NOT_FOUND` for no such workspace). */
async function readPlan(db: DbOrTx, workspaceId: string): Promise<Plan> {
  const [row] = await queryRows<{ plan: string }>(db, sql`select plan from workspaces where id = ${workspaceId}`);
  if (!row) throw new SessError('NOT_FOUND', `No workspace ${workspaceId}.`);
  return planFor(row.plan);
}

/** The gate of a plan's open-session limit (none for a plan without one). */
function planGates(plan: Plan, workspaceId: string): CreateGate[] {
  return plan.openSessions === null ? [] : [{ key: workspaceOpenKey(workspaceId), limit: plan.openSessions }];
}

/**
 * Counts the workspace's open sessions exactly, under its gate's row lock (the lock every create
 * of a limited plan takes in its statement, so none can slip in between), and refuses a create
 * at the limit. Runs in the create's transaction, before its insert.
 */
async function admitExactly(tx: Tx, workspaceId: string, plan: Plan, now: Date, otherGates: CreateGate[] = []): Promise<void> {
  if (plan.openSessions === null) return;
  // Every gate of the create, in key order as a create's statement locks them: taking the
  // workspace's first and a principal's later would deadlock against a concurrent create.
  const keys = [workspaceOpenKey(workspaceId), ...otherGates.map((gate) => gate.key)].sort();
  await tx.execute(lockOpenCounts(sql`select json_array_elements_text(${JSON.stringify(keys)}::json)`));
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from (
          select 1 from form_sessions
           where workspace_id = ${workspaceId} and state = 'open' and closes_at > ${isoParam(now)}::timestamptz
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

/**
 * Reads the workspace's plan inside the create's transaction and, for a plan with an
 * open-session limit, counts its open sessions exactly under the gate's lock (`admitExactly`).
 */
export async function admitCreate(tx: Tx, ctx: WorkspaceContext, now: Date): Promise<Plan> {
  const plan = ctx.plan !== undefined ? planFor(ctx.plan) : await readPlan(tx, ctx.workspaceId);
  await admitExactly(tx, ctx.workspaceId, plan, now);
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
 * What a caller adds to a create's statement: gates of its own, its companions' rows (see
 * `FormsRuntimeOptions.createCompanions`), and the error for one of its gates found full.
 */
export interface CreateExtras {
  gates?: CreateGate[] | undefined;
  companions?: Record<string, unknown> | undefined;
  refusal?: ((gateKey: string) => Error) | undefined;
}

/** A create built (its id, link, times and result fixed) and not yet stored. */
export interface PreparedCreate<R> {
  readonly result: R;
  /**
   * Stores it, once (a second call returns the first's outcome): in ONE statement shared with
   * the creates of the same moment, or inside `tx` (default: the context's); with `extras` in that
   * same statement.
   * @throws SessError `PLAN_LIMIT_REACHED`, the extras' refusal, `IDEMPOTENCY_KEY_REUSED`
   */
  store(options?: StoreOptions): Promise<R>;
  /** `store`, also saying which companions wrote a row that counts (none on an idempotent replay). */
  storeWith(options?: StoreOptions): Promise<{ result: R; written: ReadonlySet<string> }>;
}

export interface StoreOptions {
  extras?: CreateExtras | undefined;
  /** The transaction to store in (default: the context's). */
  tx?: Tx | undefined;
}

const NONE: ReadonlySet<string> = new Set();

/** The error of a create refused by `refusedBy`: its maker's floor moved, or a gate of the extras was full. */
function refusalOf(session: NewSession, extras: CreateExtras | undefined, refusedBy: string): Error {
  if (refusedBy === FLOOR_MOVED) return new FloorMovedError(session.audience.floorSeen?.key ?? '');
  return extras?.refusal?.(refusedBy) ?? new Error(`A create was refused by the gate ${refusedBy}, which has no refusal.`);
}

/**
 * Builds a new session (reading the plan when the context does not carry it) for a later
 * `store`. The store checks the plan's open-session limit by its gate in the create's own
 * statement: the gate's counter (stored-open sessions) is an upper bound, so a create it admits
 * is within the limit; one it refuses is counted again exactly, under the gate's lock, in a
 * transaction (a workspace whose lapsed links keep the bound high), and refused only if the
 * exact count is at the limit. Idempotent creates claim their key in the same statement.
 */
export async function prepareNewSession<R>(
  ctx: WorkspaceContext,
  idempotency: Idempotency | undefined,
  build: (plan: Plan, now: Date) => { session: NewSession; result: R },
): Promise<PreparedCreate<R>> {
  const { runtime, workspaceId } = ctx;
  const began = performance.now();
  void runtime.sweepIfDue();
  const plan = ctx.plan !== undefined ? planFor(ctx.plan) : await readPlan(ctx.tx ?? runtime.database.db, workspaceId);
  const { session, result } = build(plan, runtime.now());
  const resolved = idempotency ? resolveIdempotency(workspaceId, idempotency) : undefined;
  const companions = runtime.createCompanions;

  async function store({ extras, tx = ctx.tx }: StoreOptions): Promise<{ result: R; written: ReadonlySet<string> }> {
    for (const name of Object.keys(extras?.companions ?? {})) {
      // Rows of an unknown companion would be dropped without a word: refuse instead.
      if (!companions.some((c) => c.name === name)) throw new Error(`No create companion "${name}" in this forms runtime.`);
    }
    const gates = [...planGates(plan, workspaceId), ...(extras?.gates ?? [])];
    const row: SessionRow = {
      session,
      claim: resolved && {
        scope: resolved.scope,
        key: resolved.key,
        requestSha256: resolved.requestSha256,
        response: storedResponse(runtime.secret, resolved, result),
      },
      gates,
      companions: extras?.companions,
    };
    const outcome = tx
      ? ((await insertSessionRows(tx, [row], companions)).get(session.id) ?? { stored: false })
      : await runtime.creates.store(row);
    if (outcome.stored) {
      observeCreate(runtime, session.kind, began);
      return { result, written: new Set(outcome.written) };
    }
    if (outcome.refusedBy === undefined) {
      if (!resolved) throw new Error('A create without an idempotency key was not stored.');
      return { result: await replayStored<R>(runtime.secret, tx ?? runtime.database.db, resolved), written: NONE };
    }
    if (outcome.refusedBy !== workspaceOpenKey(workspaceId)) throw refusalOf(session, extras, outcome.refusedBy);
    let written: ReadonlySet<string> = NONE;
    const exactly = async () => {
      const { value, replayed } = await runIdempotent(
        runtime,
        workspaceId,
        idempotency,
        async (t) => {
          await admitExactly(t, workspaceId, plan, runtime.now(), extras?.gates);
          const exact: SessionRow = { session, gates: extras?.gates, companions: extras?.companions };
          const again = (await insertSessionRows(t, [exact], companions)).get(session.id);
          if (!again?.stored) throw refusalOf(session, extras, again?.refusedBy ?? 'unknown');
          written = new Set(again.written);
          return { value: result };
        },
        tx,
      );
      if (!replayed) observeCreate(runtime, session.kind, began);
      return { result: value, written: replayed ? NONE : written };
    };
    // Inside a caller's transaction it runs there; otherwise one at a time per workspace.
    return tx ? exactly() : runtime.exactAdmissions.run(workspaceId, exactly);
  }

  let stored: ReturnType<typeof store> | undefined;
  const storeWith = (options: StoreOptions = {}) => (stored ??= store(options));
  return { result, storeWith, store: async (options) => (await storeWith(options)).result };
}

/**
 * Stores a new session with the plan's checks, at most once per idempotency key
 * (`prepareNewSession`, then its store; with `ctx.tx` inside the caller's transaction).
 *
 * `ownersNotice` (an API key's create): when the runtime's `apiKeyNotices` say someone of the
 * workspace wants to be told, the create takes a transaction and enqueues the notice in it
 * (`tellOwners`); otherwise nothing changes.
 */
export async function storeNewSession<R>(
  ctx: WorkspaceContext,
  idempotency: Idempotency | undefined,
  build: (plan: Plan, now: Date) => { session: NewSession; result: R },
  ownersNotice?: OwnersNotice<R>,
): Promise<R> {
  const { runtime } = ctx;
  const began = performance.now();
  const notice = ownersNotice && (await ownersWantNotice(ctx)) ? ownersNotice : undefined;
  if (!notice) return (await prepareNewSession(ctx, idempotency, build)).store();
  void runtime.sweepIfDue();
  let kind: NewSession['kind'] = 'interaction';
  const { value, replayed } = await runIdempotent(
    runtime,
    ctx.workspaceId,
    idempotency,
    async (tx) => {
      const now = runtime.now();
      const plan = await admitCreate(tx, ctx, now);
      const { session, result } = build(plan, now);
      kind = session.kind;
      const outcome = (await insertSessionRows(tx, [{ session }], runtime.createCompanions)).get(session.id);
      if (!outcome?.stored) throw refusalOf(session, undefined, outcome?.refusedBy ?? 'unknown');
      return { value: await tellOwners(tx, runtime, session, result, notice) };
    },
    ctx.tx,
  );
  if (!replayed) observeCreate(runtime, kind, began);
  return value;
}

/** Tells the runtime's observer (metrics) of a create stored, with the time since it `began` (`performance.now()`). */
function observeCreate(runtime: FormsRuntime, kind: NewSession['kind'], began: number): void {
  runtime.observer?.created(kind, (performance.now() - began) / 1000);
}
