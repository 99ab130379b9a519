import { type HandleState, REVIEW_HANDLE_STATES, UNFINISHED_HANDLE_STATES } from '@sess/contract';
import { createLogger, createSweeper, isSessError, type Logger, SessError } from '@sess/core';
import {
  classifyDatabaseError,
  type Db,
  lockOpenCounts,
  mcpHandles,
  principalUnfinishedKey,
  queryRows,
  UNSTORABLE_INPUT_MESSAGE,
} from '@sess/db';
import {
  CommitFailure,
  type CreateIntent,
  type HandleBinding,
  type HandlePatch,
  type HandleRecord,
  type HandleStore,
  type HandleStoreFactory,
  type ListStatus,
  MAX_UNFINISHED_PER_PRINCIPAL,
  type SavedMutation,
  type SealedData,
} from '@sess/interactions';
import { and, desc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { deleteFinishedHandles } from './delete-finished-handles.ts';
import { createSealer, type Sealer } from './seal.ts';

type Row = typeof mcpHandles.$inferSelect;

export interface PostgresHandleStoreOptions {
  db: Db;
  /** The server secret; the link and answer data are sealed with a key derived from it. */
  secret: string;
  now?: () => Date;
  /** Where the retention sweep reports; silent when absent. */
  logger?: Logger;
}

const UNFINISHED = [...UNFINISHED_HANDLE_STATES];

/** The fields a `HandlePatch` may set, each a column of `mcp_handles` of the same name. */
const PATCH_FIELDS = [
  'state',
  'sessionId',
  'askId',
  'revision',
  'surfaceSha256',
  'expiresAt',
  'intent',
  'pending',
  'confirmed',
  'sealed',
  'blockedReason',
] as const satisfies ReadonlyArray<keyof HandlePatch & keyof Row>;
type PatchField = (typeof PATCH_FIELDS)[number];
/** Fails to compile when `HandlePatch` gains a field this store does not write. */
const everyPatchFieldWritten: [Exclude<keyof HandlePatch, PatchField>] extends [never] ? true : never = true;
void everyPatchFieldWritten;

/**
 * A failure of the store as the tools see it: characters the database cannot store are
 * `INVALID_ARGUMENTS` (the same call always fails); anything else — the database out of reach
 * included — is the transient, retryable `STATE_STORE_ERROR` (503).
 */
function storeError(error: unknown): SessError {
  if (isSessError(error)) return error;
  if (classifyDatabaseError(error).kind === 'bad_input') {
    return new SessError('INVALID_ARGUMENTS', UNSTORABLE_INPUT_MESSAGE, {}, { cause: error });
  }
  return new SessError(
    'STATE_STORE_ERROR',
    'The handle store could not be read or written. Try again in a moment.',
    {},
    { cause: error },
  );
}

/**
 * What the handle store adds to a create's statement (structurally @sess/forms' `CreateExtras`):
 * the principal's 100-unfinished gate, the handle row for `HANDLE_COMPANION`, and the error
 * for that gate found full.
 */
export interface HandleCreateExtras {
  gates: Array<{ key: string; limit: number }>;
  companions: { handle: Record<string, unknown> };
  refusal(gateKey: string): Error;
}

/**
 * The hosted handle record as a create's companion: `mcp_handles` rows inserted, in the
 * create's statement, from each admitted create's `companions -> 'handle'` (the row's columns by
 * name, see `handleRow`). Give it to the forms runtime (`createCompanions`).
 */
export const HANDLE_COMPANION = {
  name: 'handle',
  insert: sql`insert into mcp_handles
              select h.* from admitted a
               cross join lateral json_populate_record(null::mcp_handles, a.companions -> 'handle') h
               where a.companions -> 'handle' is not null
              returning coalesce(session_id, ask_id) as session_id`,
} as const;

function storeFull(): SessError {
  return new SessError(
    'STATE_STORE_FULL',
    `You have ${MAX_UNFINISHED_PER_PRINCIPAL} unfinished interactions. Complete or cancel some (sess_list shows them) before starting another.`,
    { limit: MAX_UNFINISHED_PER_PRINCIPAL },
  );
}

/**
 * A failed create written with its handle record, as the tools see it: the database out of reach
 * becomes `CommitFailure`, saying whether the commit may have happened (the create then reads its
 * handle back to find out); other failures are the store's own.
 */
export function commitFailure(error: unknown): SessError {
  const failure = classifyDatabaseError(error);
  if (failure.kind === 'unavailable') return new CommitFailure(failure.unsent ? false : 'unknown', { cause: error });
  return storeError(error);
}

function iso(value: Date | null): string | undefined {
  return value ? value.toISOString() : undefined;
}

function statusFilter(status: ListStatus): SQL | undefined {
  switch (status) {
    case 'all':
      return undefined;
    case 'open':
      return inArray(mcpHandles.state, UNFINISHED);
    case 'blocked':
      return inArray(mcpHandles.state, [...REVIEW_HANDLE_STATES]);
    default:
      return eq(mcpHandles.state, status);
  }
}

function encodeCursor(record: HandleRecord): string {
  return Buffer.from(JSON.stringify([record.createdAt, record.handle]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): [Date, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      const at = new Date(value[0]);
      if (!Number.isNaN(at.getTime())) return [at, value[1]];
    }
  } catch {
    // fall through to the argument error
  }
  throw new SessError('INVALID_ARGUMENTS', '/cursor is not a cursor from sess_list. Leave it out to start from the newest.', {
    field: '/cursor',
  });
}

/** The PostgreSQL handle store: the per-request view, and what the hosted create writes with its own statement. */
export interface PostgresHandleStore {
  bind: HandleStoreFactory;
  sealer: Sealer;
  /** Deletes long-finished handles, at most hourly; every insert calls it without awaiting. */
  sweepIfDue(): Promise<void> | undefined;
  /**
   * A new record as a create's extras (the row for `HANDLE_COMPANION`, the principal's gate and
   * its refusal), for the in-process backend to write in the create's own statement. Like an
   * insert, it starts the retention sweep when due.
   */
  createExtras(record: HandleRecord): HandleCreateExtras;
}

/**
 * The durable hosted handle store on PostgreSQL (or PGlite): one `mcp_handles` row per handle,
 * the link and answer data sealed, compare-and-set on `version`. One instance serves every
 * request; `bind(binding)` gives the per-request view the edge's `handleStore` option returns.
 */
export function createPostgresHandleStore(options: PostgresHandleStoreOptions): PostgresHandleStore {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const sealer = createSealer(options.secret);
  const sweepIfDue = createSweeper({
    name: 'mcp.handles',
    logger: options.logger ?? createLogger({ level: 'silent' }),
    now,
    sweep: async (at) => ({ handles: await deleteFinishedHandles(db, at) }),
  });

  function decode(row: Row): HandleRecord {
    const record: HandleRecord = {
      handle: row.handle,
      origin: row.origin,
      workspaceId: row.workspaceId,
      principalId: row.principalId,
      clientId: row.clientId,
      grantId: row.grantId,
      grantGeneration: row.grantGeneration,
      kind: row.kind,
      state: row.state as HandleState,
      version: row.version,
      revision: row.revision,
      title: row.title,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
    if (row.sessionId) record.sessionId = row.sessionId;
    if (row.askId) record.askId = row.askId;
    if (row.surfaceSha256) record.surfaceSha256 = row.surfaceSha256;
    const expiresAt = iso(row.expiresAt);
    if (expiresAt) record.expiresAt = expiresAt;
    if (row.intent) record.intent = row.intent as CreateIntent;
    if (row.pending) record.pending = row.pending as SavedMutation;
    if (row.confirmed) record.confirmed = row.confirmed as SavedMutation & { resultRevision: number };
    if (row.blockedReason) record.blockedReason = row.blockedReason;
    if (row.sealed) {
      const data = sealer.open(row.handle, row.sealed) as SealedData;
      if (data.humanUrl) record.humanUrl = data.humanUrl;
      if (data.response) record.response = data.response;
    }
    return record;
  }

  function sealedOf(handle: string, data: SealedData | null | undefined): string | null {
    if (!data || (data.humanUrl === undefined && data.response === undefined)) return null;
    return sealer.seal(handle, data);
  }

  /** A patch field's value as its column stores it (null: the column is cleared). */
  function columnValue(handle: string, field: PatchField, value: HandlePatch[PatchField]): unknown {
    if (value === null) return null;
    if (field === 'sealed') return sealedOf(handle, value as SealedData);
    if (field === 'expiresAt') return new Date(value as string);
    return value;
  }

  // The hot read, prepared once: every tool call loads its handle with it.
  const getHandle = db
    .select()
    .from(mcpHandles)
    .where(and(eq(mcpHandles.handle, sql.placeholder('handle')), eq(mcpHandles.workspaceId, sql.placeholder('workspaceId'))))
    .limit(1)
    .prepare('mcp_handles_get');

  // What a bound store needs besides its binding, made once here rather than per request: a
  // parked wait keeps its bound store, so every closure made in `bind` is held per wait.
  const scope = (binding: HandleBinding, handle: string) =>
    and(eq(mcpHandles.handle, handle), eq(mcpHandles.workspaceId, binding.workspaceId));
  const gateKeyOf = (binding: HandleBinding) => principalUnfinishedKey(binding.workspaceId, binding.principalId);

  /** A record's row for `json_populate_record(null::mcp_handles, …)`: every column, by name. */
  function handleRow(record: HandleRecord): Record<string, unknown> {
    return {
      handle: record.handle,
      workspace_id: record.workspaceId,
      principal_id: record.principalId,
      client_id: record.clientId,
      grant_id: record.grantId,
      grant_generation: record.grantGeneration,
      origin: record.origin,
      kind: record.kind,
      state: record.state,
      version: record.version,
      session_id: record.sessionId ?? null,
      ask_id: record.askId ?? null,
      revision: record.revision,
      surface_sha256: record.surfaceSha256 ?? null,
      title: record.title,
      expires_at: record.expiresAt ?? null,
      intent: record.intent ?? null,
      pending: record.pending ?? null,
      confirmed: record.confirmed ?? null,
      sealed: sealedOf(record.handle, { humanUrl: record.humanUrl, response: record.response } as SealedData),
      blocked_reason: record.blockedReason ?? null,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
    };
  }

  function createExtras(binding: HandleBinding, record: HandleRecord): HandleCreateExtras {
    return {
      gates: [{ key: gateKeyOf(binding), limit: MAX_UNFINISHED_PER_PRINCIPAL }],
      companions: { handle: handleRow(record) },
      refusal: storeFull,
    };
  }

  /**
   * Inserts a record alone, in one statement: the principal's gate row (see `open_counts`) is
   * locked and read at its latest, so two inserts cannot both take slot 100.
   */
  async function insertAlone(binding: HandleBinding, extras: HandleCreateExtras): Promise<void> {
    const inserted = await queryRows<{ handle: string }>(
      db,
      sql`with gate as (${lockOpenCounts(sql`values (${gateKeyOf(binding)})`)})
          insert into mcp_handles
          select h.* from json_populate_record(null::mcp_handles, ${JSON.stringify(extras.companions.handle)}::json) h
           where (select counted from gate) < ${MAX_UNFINISHED_PER_PRINCIPAL}
          returning handle`,
    );
    if (inserted.length === 0) throw storeFull();
  }

  /*
   * An update is one prepared statement per patch shape (which fields it sets, which it clears,
   * and whether it records an answer), built the first time that shape is used: building a
   * drizzle update costs ~160 µs of CPU each time, which the wake path paid on every answer. A
   * cleared field is a literal null, not a placeholder: a placeholder's value goes through the
   * column's encoder, which would store JSON `null` in a jsonb column rather than SQL NULL.
   */
  const updateStatements = new Map<string, ReturnType<typeof prepareUpdate>>();
  function updateStatement(shape: string, recordsAnswer: boolean) {
    const key = `${shape}${recordsAnswer ? 'answer' : ''}`;
    let statement = updateStatements.get(key);
    if (!statement) {
      statement = prepareUpdate(shape, recordsAnswer, `mcp_handles_update_${updateStatements.size}`);
      updateStatements.set(key, statement);
    }
    return statement;
  }
  function prepareUpdate(shape: string, recordsAnswer: boolean, name: string) {
    const set: Record<string, unknown> = {
      version: sql`${mcpHandles.version} + 1`,
      updatedAt: sql.placeholder('updatedAt'),
    };
    for (const part of shape.split(',')) {
      if (!part) continue;
      const [field, cleared] = part.split('=') as [PatchField, string | undefined];
      set[field] = cleared ? sql`null` : sql.placeholder(field);
    }
    // Recording an answer copies what the runtime already holds durably (and verified): that
    // commit need not wait for the WAL flush. A crash loses at most the copy, and the next
    // sess_response reads, verifies and saves the same answer again. (set_config's `true`
    // scopes it to this statement's own transaction.)
    const copyOnly = recordsAnswer ? sql`(select set_config('synchronous_commit', 'off', true)) = 'off'` : undefined;
    return db
      .update(mcpHandles)
      .set(set as Partial<typeof mcpHandles.$inferInsert>)
      .where(
        and(
          eq(mcpHandles.handle, sql.placeholder('handle')),
          eq(mcpHandles.workspaceId, sql.placeholder('workspaceId')),
          eq(mcpHandles.version, sql.placeholder('expectedVersion')),
          copyOnly,
        ),
      )
      .returning()
      .prepare(name);
  }

  // The bound store's methods, made once: they read the binding from `this`. A parked wait keeps
  // its bound store, and methods made in `bind` would be six closures and a context per wait.
  const boundMethods: Omit<HandleStore, 'binding'> = {
    async get(this: HandleStore, handle) {
      try {
        const rows = await getHandle.execute({ handle, workspaceId: this.binding.workspaceId });
        return rows[0] ? decode(rows[0]) : undefined;
      } catch (error) {
        throw storeError(error);
      }
    },
    async insert(this: HandleStore, record) {
      void sweepIfDue();
      const extras = createExtras(this.binding, record);
      try {
        await insertAlone(this.binding, extras);
      } catch (error) {
        throw storeError(error);
      }
    },
    async update(this: HandleStore, handle, expectedVersion, patch: HandlePatch) {
      const values: Record<string, unknown> = {
        handle,
        workspaceId: this.binding.workspaceId,
        expectedVersion,
        updatedAt: now(),
      };
      let shape = '';
      for (const field of PATCH_FIELDS) {
        if (patch[field] === undefined) continue;
        const value = columnValue(handle, field, patch[field]);
        if (value === null) {
          shape += `${field}=null,`;
        } else {
          shape += `${field},`;
          values[field] = value;
        }
      }
      try {
        const rows = await updateStatement(shape, patch.state === 'answered').execute(values);
        return rows[0] ? decode(rows[0]) : undefined;
      } catch (error) {
        throw storeError(error);
      }
    },
    async removeIntent(this: HandleStore, handle, expectedVersion) {
      try {
        const rows = await db
          .delete(mcpHandles)
          .where(and(scope(this.binding, handle), eq(mcpHandles.version, expectedVersion), eq(mcpHandles.state, 'create_intent')))
          .returning({ handle: mcpHandles.handle });
        return rows.length === 1;
      } catch (error) {
        throw storeError(error);
      }
    },
    async list(this: HandleStore, { status, cursor, limit }) {
      const conditions: SQL[] = [
        eq(mcpHandles.workspaceId, this.binding.workspaceId),
        eq(mcpHandles.principalId, this.binding.principalId),
        eq(mcpHandles.clientId, this.binding.clientId),
        eq(mcpHandles.grantId, this.binding.grantId),
        eq(mcpHandles.grantGeneration, this.binding.grantGeneration),
        eq(mcpHandles.origin, this.binding.origin),
      ];
      const filter = statusFilter(status);
      if (filter) conditions.push(filter);
      if (cursor) {
        const [at, handle] = decodeCursor(cursor);
        conditions.push(
          or(lt(mcpHandles.createdAt, at), and(eq(mcpHandles.createdAt, at), lt(mcpHandles.handle, handle))) as SQL,
        );
      }
      try {
        const rows = await db
          .select()
          .from(mcpHandles)
          .where(and(...conditions))
          .orderBy(desc(mcpHandles.createdAt), desc(mcpHandles.handle))
          .limit(limit + 1);
        const records = rows.slice(0, limit).map(decode);
        const last = records.at(-1);
        return rows.length > limit && last ? { records, nextCursor: encodeCursor(last) } : { records };
      } catch (error) {
        throw storeError(error);
      }
    },
  };

  function bind(binding: HandleBinding): HandleStore {
    return { binding, ...boundMethods };
  }

  return {
    bind,
    sealer,
    sweepIfDue,
    createExtras(record) {
      void sweepIfDue();
      return createExtras(record, record);
    },
  };
}
