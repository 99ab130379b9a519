import { STORED_SESSION_MACHINE } from '@sess/contract';
import { type DecisionRule, hashSecret } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { lockOpenCounts, PreparedSql, workspaceOpenKey } from '@sess/db';
import type { Surface } from '@sess/surface';
import { type SQL, sql } from 'drizzle-orm';
import type { StoredResponse } from '../idempotency/stored-response.ts';
import { stateLiteral } from '../model/sql-values.ts';
import { FLOOR_MOVED, type FormAudience } from './form-audience.ts';

/** The stored state a session is created in: the transition table's one initial state. */
const NEW_SESSION_STATE = STORED_SESSION_MACHINE.initial[0]!;

/** The times of a new link (see form_sessions). */
export interface LinkTimes {
  createdAt: Date;
  expiresAt: Date;
  deadlineAt: Date;
  horizonAt: Date | null;
  closesAt: Date;
  extendable: boolean;
}

export interface NewSession {
  id: string;
  workspaceId: string;
  kind: 'interaction' | 'ask';
  token: string;
  lifetimeSeconds: number;
  times: LinkTimes;
  surface: Surface;
  /** `hashSurface(surface)`, computed once by the caller. */
  surfaceSha256: string;
  /** Whether a host may show the form in the agent's chat for the person there to answer (an Ask: false). */
  answerInChat: boolean;
  /** Who may answer: the level (after the floor) and, above `link`, the accounts it is for. */
  audience: FormAudience;
  ask?: {
    max: number;
    name: boolean;
    respondentSeconds: number | null;
    /** An Ask that decides: its rule as asked and the counts that decide (`decisionThresholds`). */
    decide?: { rule: DecisionRule; quorum: number | null; approveAt: number; rejectAt: number };
    /** Backup people (`respondents.escalate`): their accounts, who may start from `at`. */
    escalate?: { backupUserIds: string[]; at: Date };
  };
}

/** The idempotency key a create claims, with the (sealed) response it will replay. */
export interface CreateClaim {
  scope: string;
  key: string;
  requestSha256: string;
  /** The `response` column's value. */
  response: StoredResponse;
}

/**
 * A counter of `open_counts` a create must find room under: it is admitted only while
 * `counted < limit`. The row is locked in the create's own statement, so concurrent creates
 * under one counter are exact (the triggers of migration 0008 keep the counter).
 */
export interface CreateGate {
  key: string;
  limit: number;
}

/**
 * Rows another module writes in a create's own statement (the hosted handle record, say), so
 * they commit with the session or not at all. `insert` is a data-modifying statement reading
 * the admitted creates from `admitted` (`id` is the session's), each with its rows in
 * `admitted.companions -> name`; it returns one column, `session_id`, the session a row that
 * counts was written for (null for a row that does not count), which the create's outcome
 * reports in `written`. The runtime's companions are fixed before its first create, so the
 * statement text stays one prepared statement.
 */
export interface CreateCompanion {
  name: string;
  insert: SQL;
}

/** One create: a session, the key it claims, the counters it needs room under, its companions' rows. */
export interface SessionRow {
  session: NewSession;
  claim?: CreateClaim | undefined;
  gates?: CreateGate[] | undefined;
  /** Rows for the runtime's companions, by companion name. */
  companions?: Record<string, unknown> | undefined;
}

/** What became of one create of a statement. */
export interface RowOutcome {
  stored: boolean;
  /** The companions that wrote a row that counts for it (see `CreateCompanion`). */
  written?: string[];
  /**
   * The gate that had no room, or `FLOOR_MOVED` (nothing was stored); absent when stored or when
   * the key was taken.
   */
  refusedBy?: string;
  /**
   * A counter it needs (its workspace's, or a gate's) was locked by another transaction, and the
   * statement was one that does not wait (`skipLocked`): nothing was stored; send it again in a
   * statement that waits.
   */
  busy?: true;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** A row as `json_to_recordset` below reads it (json, not jsonb: a Surface keeps its key order). */
function toRecord({ session: s, claim, gates, companions }: SessionRow) {
  const t = s.times;
  return {
    id: s.id,
    workspace_id: s.workspaceId,
    kind: s.kind,
    link_token_hash: hashSecret(s.token),
    lifetime_seconds: s.lifetimeSeconds,
    extendable: t.extendable,
    created_at: iso(t.createdAt),
    expires_at: iso(t.expiresAt),
    deadline_at: iso(t.deadlineAt),
    horizon_at: iso(t.horizonAt),
    closes_at: iso(t.closesAt),
    ask_max: s.ask?.max ?? null,
    ask_name: s.ask?.name ?? null,
    ask_respondent_seconds: s.ask?.respondentSeconds ?? null,
    ask_decide: s.ask?.decide?.rule ?? null,
    ask_quorum: s.ask?.decide?.quorum ?? null,
    ask_approve_at: s.ask?.decide?.approveAt ?? null,
    ask_reject_at: s.ask?.decide?.rejectAt ?? null,
    ask_backup_user_ids: s.ask?.escalate?.backupUserIds ?? null,
    ask_escalate_at: iso(s.ask?.escalate?.at ?? null),
    answer_in_chat: s.answerInChat,
    assurance: s.audience.assurance,
    for_user_ids: s.audience.forUserIds,
    floor_key: s.audience.floorSeen?.key ?? null,
    floor_seen: s.audience.floorSeen?.floor ?? null,
    surface: s.surface,
    surface_sha256: s.surfaceSha256,
    claim_scope: claim?.scope ?? null,
    claim_key: claim?.key ?? null,
    claim_request_sha256: claim?.requestSha256 ?? null,
    claim_response: claim?.response ?? null,
    gates: gates && gates.length > 0 ? gates : null,
    companions: companions ?? null,
  };
}

type OutcomeRow = { id: string; stored: boolean; refused_by: string | null; busy: boolean; written: string[] };

/**
 * The create statement for `companions`; the rows come as the placeholder `rows` (JSON text).
 * Every counter of `open_counts` the statement will write (each create's gates, and its
 * workspace's, which the insert trigger raises) is locked first, in key order. With
 * `skipLocked`, a counter another transaction holds is not waited for: the creates that need it
 * are left out (`busy`), so one workspace whose counter is held never delays the creates of
 * others that share its statement.
 */
function createSql(companions: readonly CreateCompanion[], skipLocked: boolean): SQL {
  const cte = (c: CreateCompanion) => sql.raw(`companion_${c.name.replace(/[^a-z0-9_]/g, '_')}`);
  const companionWrites = companions.map((c) => sql`, ${cte(c)} as (${c.insert})`);
  const written =
    companions.length === 0
      ? sql`array[]::text[]`
      : sql`array_remove(array[${sql.join(
          companions.map((c) => sql`case when exists (select 1 from ${cte(c)} w where w.session_id = i.id) then ${c.name} end`),
          sql`, `,
        )}]::text[], null)`;
  return sql`with input as (
          select * from json_to_recordset(${sql.placeholder('rows')}::json) as i(
            id text, workspace_id text, kind text, link_token_hash text, lifetime_seconds int, extendable boolean,
            created_at timestamptz, expires_at timestamptz, deadline_at timestamptz, horizon_at timestamptz,
            closes_at timestamptz, ask_max int, ask_name boolean, ask_respondent_seconds int,
            ask_decide text, ask_quorum int, ask_approve_at int, ask_reject_at int, ask_backup_user_ids json,
            ask_escalate_at timestamptz, answer_in_chat boolean, assurance text, for_user_ids json,
            floor_key text, floor_seen text, surface json,
            surface_sha256 text, claim_scope text, claim_key text, claim_request_sha256 text, claim_response jsonb,
            gates json, companions json)),
        -- A create decided under a cached floor that is no longer the floor (see FormAudience.floorSeen).
        moved as (
          select i.id from input i
           where i.floor_key is not null
             and i.floor_seen is distinct from (
               case left(i.floor_key, 2)
                 when 'p ' then (select u.assurance_floor::text from users u where u.id = substr(i.floor_key, 3))
                 else (select w.api_key_assurance_floor::text from workspaces w where w.id = substr(i.floor_key, 3)) end)),
        wanted as (
          select i.id, g.key, g."limit" from input i cross join lateral json_to_recordset(i.gates) as g(key text, "limit" int)),
        needed as (
          select id, key from wanted union select id, ${workspaceOpenKey('')}::text || workspace_id from input),
        held as materialized (
          select key from open_counts where key in (select key from needed)
           order by key for update${sql.raw(skipLocked ? ' skip locked' : '')}),
        busy as (
          select distinct n.id from needed n
           where exists (select 1 from open_counts c where c.key = n.key)
             and not exists (select 1 from held h where h.key = n.key)),
        counts as (${lockOpenCounts(sql`select key from wanted where id not in (select id from busy)`)}),
        refused as (
          select w.id, min(w.key) as key from wanted w join counts c on c.key = w.key
           where c.counted >= w."limit" group by w.id),
        room as (
          select i.* from input i
           where not exists (select 1 from refused r where r.id = i.id) and not exists (select 1 from busy b where b.id = i.id)
             and not exists (select 1 from moved m where m.id = i.id)),
        claimed as (
          insert into idempotency_keys (workspace_id, scope, key, request_sha256, status, response, created_at)
          select workspace_id, claim_scope, claim_key, claim_request_sha256, 201, claim_response, created_at
            from room where claim_key is not null
          on conflict do nothing
          returning workspace_id, scope, key),
        admitted as (
          select i.* from room i
           where i.claim_key is null
              or exists (select 1 from claimed c
                          where c.workspace_id = i.workspace_id and c.scope = i.claim_scope and c.key = i.claim_key)),
        s as (
          insert into form_sessions
            (id, workspace_id, kind, state, current_revision, link_token_hash, lifetime_seconds, extendable,
             created_at, expires_at, deadline_at, horizon_at, closes_at, ask_max, ask_name, ask_respondent_seconds,
             ask_decide, ask_quorum, ask_approve_at, ask_reject_at, ask_decision, ask_backup_user_ids, ask_escalate_at,
             answer_in_chat, assurance, clock_at, for_user_ids)
          select id, workspace_id, kind, ${stateLiteral(NEW_SESSION_STATE)}, 1, link_token_hash, lifetime_seconds, extendable,
                 created_at, expires_at, deadline_at, horizon_at, closes_at, ask_max, ask_name, ask_respondent_seconds,
                 ask_decide, ask_quorum, ask_approve_at, ask_reject_at, case when ask_decide is null then null else 'pending' end,
                 (select array_agg(u) from json_array_elements_text(ask_backup_user_ids) u), ask_escalate_at,
                 answer_in_chat, assurance,
                 -- The clock's first instant (migration 0018's rule), here so the insert skips its row trigger.
                 sess_form_clock_at(${stateLiteral(NEW_SESSION_STATE)}, extendable, deadline_at, closes_at, null),
                 -- An empty list stays empty (nobody may answer: fail closed), never null (anyone with the link).
                 case when for_user_ids is null then null
                      else coalesce((select array_agg(u) from json_array_elements_text(for_user_ids) u), '{}'::text[]) end
            from admitted
          returning id),
        r as (
          insert into form_revisions (session_id, revision, workspace_id, surface, surface_sha256, created_at)
          select a.id, 1, a.workspace_id, a.surface, a.surface_sha256, a.created_at
            from admitted a join s on s.id = a.id
          returning session_id)${sql.join(companionWrites, sql``)}
        select i.id, exists (select 1 from r where r.session_id = i.id) as stored,
               case when exists (select 1 from moved m where m.id = i.id) then ${sql.raw(`'${FLOOR_MOVED}'`)}
                    else (select x.key from refused x where x.id = i.id) end as refused_by,
               exists (select 1 from busy b where b.id = i.id) as busy, ${written} as written
          from input i`;
}

const NO_COMPANIONS: readonly CreateCompanion[] = [];

/** A list of companions' two create statements: one that waits for held counters, one that skips them. */
interface Statements {
  built: CreateCompanion[];
  waiting: PreparedSql<OutcomeRow>;
  skipping: PreparedSql<OutcomeRow>;
}

/**
 * The create statements of each list of companions, built once: they run on every create. A
 * runtime's list is fixed before its first create; a list that changed after all gets its
 * statements built again.
 */
const statements = new WeakMap<readonly CreateCompanion[], Statements>();

function createStatement(companions: readonly CreateCompanion[], skipLocked: boolean): PreparedSql<OutcomeRow> {
  let cached = statements.get(companions);
  if (!cached || cached.built.length !== companions.length || !cached.built.every((c, i) => c === companions[i])) {
    const built = [...companions];
    cached = {
      built,
      waiting: new PreparedSql<OutcomeRow>(() => createSql(built, false)),
      skipping: new PreparedSql<OutcomeRow>(() => createSql(built, true)),
    };
    statements.set(companions, cached);
  }
  return skipLocked ? cached.skipping : cached.waiting;
}

/**
 * Inserts sessions with their revision 1 in ONE statement (one round trip, one commit when
 * autocommitted), whatever their number, together with their companions' rows. A create is
 * stored only when every gate it names has room (the gate rows are locked, in key order, in
 * this statement) and, with a claim, when its idempotency key was free: the claim, the session,
 * its revision and its companions' rows land together or not at all. The rows travel as one
 * JSON parameter, so the statement text is the same for 1 row or 64 and stays prepared.
 * Two rows must not claim the same key or name the same gate (the caller keeps them apart).
 * With `skipLocked`, a create whose counter another transaction holds is not stored (`busy`).
 */
export async function insertSessionRows(
  db: DbOrTx,
  rows: SessionRow[],
  companions: readonly CreateCompanion[] = NO_COMPANIONS,
  options: { skipLocked?: boolean } = {},
): Promise<Map<string, RowOutcome>> {
  const statement = createStatement(companions, options.skipLocked === true);
  const outcomes = await statement.rows(db, { rows: JSON.stringify(rows.map(toRecord)) });
  const result = new Map<string, RowOutcome>();
  for (const row of outcomes) {
    result.set(
      row.id,
      row.refused_by
        ? { stored: false, refusedBy: row.refused_by }
        : row.busy
          ? { stored: false, busy: true }
          : { stored: row.stored, written: row.written },
    );
  }
  return result;
}
