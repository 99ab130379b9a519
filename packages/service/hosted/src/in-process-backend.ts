import { isSessError } from '@sess/core';
import { classifyDatabaseError, databaseSessError, type Tx, unavailableMessage } from '@sess/db';
import { statusLine } from '@sess/events';
import {
  type CreatedAsk,
  type CreatedSession,
  completeSession,
  type FormsRuntime,
  prepareAsk,
  prepareSession,
  publishSession,
  type RequestArguments,
  readAsk,
  readSession,
  type SessionView,
  type WorkspaceContext,
  withCurrentFloor,
  withdrawSession,
} from '@sess/forms';
import {
  type BackendContext,
  type CreateAskInput,
  type CreateSessionInput,
  type InWorkspace,
  NotAppliedFailure,
  type SessBackend,
} from '@sess/interactions';
import { FORM_NOTICE_COMPANION } from '@sess/notify';
import type { ReceiptKeySet } from '@sess/receipts';
import { makerOf } from './api-key-principal.ts';
import type { FormNotices } from './form-notices.ts';
import {
  commitFailure,
  HANDLE_COMPANION,
  type HandleCreateExtras,
  type PostgresHandleStore,
} from './handles/postgres-handle-store.ts';

/*
 * The hosted default behind the MCP tools: @sess/forms called in-process, in the same database.
 * Its views are @sess/contract's, as /v1 answers them, so they pass through as they are.
 * Nothing here is trusted by the tools; they verify every receipt themselves.
 */

/** A receipt key set that always looks keys up in the runtime's current ring (rotation-aware, no fetch). */
export function createRuntimeKeySet(runtime: FormsRuntime): ReceiptKeySet {
  return {
    async getKey(kid) {
      const ring = await runtime.keyRing();
      return ring.keySet.getKey(kid);
    },
  };
}

/**
 * The backend's error contract (see SessBackend): the database out of reach is
 * `SESS_UNAVAILABLE` (transient) — `NotAppliedFailure` when nothing was changed (never sent, or
 * refused and rolled back: a lock or statement timeout, a workspace's writes all busy), so the
 * tools tell the agent so and take a first saved publish or complete back — and characters it
 * cannot store `INVALID_ARGUMENTS`; the cause stays attached. Everything else as thrown.
 */
function backendError(error: unknown): unknown {
  if (isSessError(error)) return error;
  const failure = classifyDatabaseError(error);
  if (failure.kind === 'unavailable' && failure.unsent)
    return new NotAppliedFailure(unavailableMessage(failure), { cause: error });
  return databaseSessError(error) ?? error;
}

/** Runs one backend call under that contract. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw backendError(error);
  }
}

/** How long a workspace's plan name is trusted before it is read again. */
const PLAN_TTL_MS = 30_000;
const PLAN_CACHE_MAX = 10_000;

/** A create prepared (its ids, link and row made, nothing written yet) and how to write it with its extras. */
interface PreparedWrite<T> {
  created: T;
  write(extras: HandleCreateExtras): Promise<void>;
}

/**
 * The in-process SessBackend over a forms runtime, in the database of the PostgreSQL handle
 * store `handles`.
 *
 * Creates pass the workspace's plan to forms, read at most every 30 s per workspace, so forms
 * needs no plan read: the create is one statement checking the plan's open-session limit by its
 * gate; a plan changed from unlimited to limited takes effect within 30 s.
 *
 * The tools' creates come through `createWithHandle`: the session (or Ask), its handle record and
 * the person's notice are written in ONE statement (forms' create with the handle store's
 * companion row and gate), so they commit together or not at all.
 */
export function createInProcessBackend(
  runtime: FormsRuntime,
  options: {
    /** The handle store whose records the tools' creates write with the form (same database). */
    handles: PostgresHandleStore;
    /**
     * The person's notifications (absent: SESS_NOTIFICATIONS=off). They are written with the
     * create and its handle record (`createWithHandle`, the hosted /mcp path), so they commit with
     * the form; a plain `createSession` tells no one and reports `notified: false`.
     */
    notices?: FormNotices | undefined;
  },
): SessBackend {
  const { handles, notices } = options;
  // The handle record, and the person's notice, are written in the create's own statement.
  runtime.addCreateCompanion(HANDLE_COMPANION);
  if (notices) runtime.addCreateCompanion(FORM_NOTICE_COMPANION);
  const plans = new Map<string, { plan: string; readAt: number }>();
  async function planOf(workspaceId: string): Promise<string | undefined> {
    const at = runtime.now().getTime();
    const cached = plans.get(workspaceId);
    if (cached && at - cached.readAt < PLAN_TTL_MS) return cached.plan;
    const row = await runtime.database.db.query.workspaces.findFirst({
      columns: { plan: true },
      where: (workspace, { eq }) => eq(workspace.id, workspaceId),
    });
    if (!row) return undefined;
    if (plans.size >= PLAN_CACHE_MAX) plans.delete(plans.keys().next().value as string);
    plans.set(workspaceId, { plan: row.plan, readAt: at });
    return row.plan;
  }
  const ctxOf = (ctx: BackendContext, plan?: string): WorkspaceContext => ({
    runtime,
    workspaceId: ctx.workspaceId,
    // Whose floor a new form meets, and whom it is for: the person of an OAuth grant, or the workspace's for an API key.
    madeBy: makerOf(ctx.principalId),
    ...(plan !== undefined ? { plan } : {}),
  });

  /**
   * Prepares a session. `joined`: written with its handle record, so there is no lost outcome to
   * replay and no idempotency record to write.
   */
  async function prepareSessionCreate(ctx: BackendContext, input: CreateSessionInput, joined: boolean) {
    const args: RequestArguments = { interaction: input.surface };
    if (input.expiresIn !== undefined) args.expires_in = input.expiresIn;
    if (input.answerInChat !== undefined) args.answer_in_chat = input.answerInChat;
    if (input.assurance !== undefined) args.assurance = input.assurance;
    if (input.for !== undefined) args.for = input.for;
    // The Surface was validated by the tool layer (parseRequestArguments) and is not parsed again.
    const prepared = await prepareSession({
      ctx: ctxOf(ctx, await planOf(ctx.workspaceId)),
      args,
      surfaceSha256: input.surfaceSha256,
      idempotencyKey: joined ? undefined : input.idempotencyKey,
    });
    const created: InWorkspace<CreatedSession> = { ...prepared.result, workspaceId: ctx.workspaceId, notified: false };
    return { prepared, created };
  }

  async function prepareAskCreate(ctx: BackendContext, input: CreateAskInput, joined: boolean) {
    const prepared = await prepareAsk({
      ctx: ctxOf(ctx, await planOf(ctx.workspaceId)),
      input: input.ask,
      idempotencyKey: joined ? undefined : input.idempotencyKey,
    });
    const created: InWorkspace<CreatedAsk> = { ...prepared.result, workspaceId: ctx.workspaceId };
    return { prepared, created };
  }

  /** A session to write with its handle record and the person's notice: one statement. */
  async function sessionWithHandle(
    ctx: BackendContext,
    input: CreateSessionInput,
  ): Promise<PreparedWrite<InWorkspace<CreatedSession>>> {
    const { prepared, created } = await prepareSessionCreate(ctx, input, true);
    const notice = await notices?.formRow(ctx, {
      sessionId: created.sessionId,
      title: input.surface.title,
      url: created.humanUrl,
      expiresAt: created.expiresAt,
    });
    return {
      created,
      async write(extras) {
        const companions = { ...extras.companions, ...(notice ? { notice } : {}) };
        const { written } = await prepared.storeWith({ extras: { ...extras, companions } });
        created.notified = written.has(FORM_NOTICE_COMPANION.name);
      },
    };
  }

  /**
   * An Ask to write with its handle record in ONE statement; with notifications on, that
   * statement and its owner's watch in one transaction. Its owner watches it (told of its answers
   * or its close); the link itself goes to no one (`notified` stays false: the agent shares it),
   * except to its named respondents (`respondents.people`), each told in that same transaction.
   */
  async function askWithHandle(ctx: BackendContext, input: CreateAskInput): Promise<PreparedWrite<InWorkspace<CreatedAsk>>> {
    const { prepared, created } = await prepareAskCreate(ctx, input, true);
    const form = { sessionId: created.askId, title: input.ask.question, url: created.humanUrl, expiresAt: created.expiresAt };
    const watch =
      notices &&
      (async (tx: Tx) => {
        await notices.askWatch(tx, ctx, form);
        // Named respondents are each told on their own devices.
        if (prepared.people.length > 0) await notices.askPeople(tx, ctx, form, prepared.people);
        // Its backup people at the escalation (the worker drops it if the Ask is full or decided by then).
        if (prepared.backups.length > 0 && created.ask.escalateAt !== undefined)
          await notices.askPeople(tx, ctx, { ...form, notBefore: new Date(created.ask.escalateAt) }, prepared.backups);
      });
    return {
      created,
      async write(extras) {
        if (!watch) {
          await prepared.store({ extras });
          return;
        }
        await runtime.database.db.transaction(async (tx) => {
          await prepared.store({ extras, tx });
          await watch(tx);
        });
      },
    };
  }

  return {
    origin: runtime.publicUrl,

    async createWithHandle(ctx, input, toRecord) {
      try {
        return await withCurrentFloor(runtime, async () => {
          const prepared = await guarded<PreparedWrite<InWorkspace<CreatedSession> | InWorkspace<CreatedAsk>>>(() =>
            'ask' in input ? askWithHandle(ctx, input) : sessionWithHandle(ctx, input),
          );
          await prepared.write(handles.createExtras(toRecord(prepared.created)));
          return prepared.created;
        });
      } catch (error) {
        throw commitFailure(error);
      }
    },

    async createSession(ctx, input) {
      return guarded(() =>
        withCurrentFloor(runtime, async () => {
          const { prepared, created } = await prepareSessionCreate(ctx, input, false);
          await prepared.store();
          return created;
        }),
      );
    },

    async createAsk(ctx, input) {
      return guarded(() =>
        withCurrentFloor(runtime, async () => {
          const { prepared, created } = await prepareAskCreate(ctx, input, false);
          await prepared.store();
          return created;
        }),
      );
    },

    readSession(ctx, input) {
      // A promise chain, not an async frame: a parked wait holds this for up to 45 s.
      return readSession({
        ctx: ctxOf(ctx),
        sessionId: input.sessionId,
        revision: input.revision,
        waitMs: input.waitMs,
        signal: input.signal,
      }).then(
        (view) => ({ ...view, workspaceId: ctx.workspaceId }),
        (error: unknown) => {
          throw backendError(error);
        },
      );
    },

    async readAsk(ctx, input) {
      return guarded(async () => ({ ...(await readAsk({ ctx: ctxOf(ctx), askId: input.askId })), workspaceId: ctx.workspaceId }));
    },

    async publish(ctx, input) {
      return guarded(async () => {
        const view = await publishSession({
          ctx: ctxOf(ctx),
          sessionId: input.sessionId,
          expectedRevision: input.expectedRevision,
          idempotencyKey: input.idempotencyKey,
          input: { response_event_id: input.responseEventId, interaction: input.surface },
          // The follow-up replaces the person's earlier notification (same Topic), committed with the publish.
          ...(notices && input.humanUrl
            ? {
                onPublished: (tx: Tx, published: { view: SessionView; title: string }) =>
                  notices.followUp(tx, ctx, {
                    sessionId: published.view.sessionId,
                    title: published.title,
                    url: input.humanUrl!,
                    expiresAt: published.view.expiresAt,
                  }),
              }
            : {}),
        });
        return { ...view, workspaceId: ctx.workspaceId };
      });
    },

    async complete(ctx, input) {
      return guarded(async () => {
        const view = await completeSession({
          ctx: ctxOf(ctx),
          sessionId: input.sessionId,
          expectedRevision: input.expectedRevision,
          idempotencyKey: input.idempotencyKey,
          input: { response_event_id: input.responseEventId },
        });
        return { ...view, workspaceId: ctx.workspaceId };
      });
    },

    async withdraw(ctx, input) {
      return guarded(() =>
        withdrawSession({ ctx: ctxOf(ctx), sessionId: input.sessionId, idempotencyKey: input.idempotencyKey }),
      );
    },

    // A working MCP task's line, from the form's latest event (scoped to the caller's workspace).
    statusLine(ctx, input) {
      const sessionId = input.askId ?? input.sessionId;
      if (!sessionId) return Promise.resolve(undefined);
      return guarded(() => statusLine(runtime.database.db, { workspaceId: ctx.workspaceId, sessionId }));
    },

    async listSessions(ctx, input) {
      const views = await Promise.all(
        input.sessionIds
          .slice(0, 50)
          .map((sessionId) => readSession({ ctx: ctxOf(ctx), sessionId, waitMs: 0 }).catch(() => undefined)),
      );
      return views.filter((view): view is SessionView => view !== undefined);
    },
  };
}
