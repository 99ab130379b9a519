import { isSessError } from '@sess/core';
import { databaseSessError, type Tx } from '@sess/db';
import {
  completeSession,
  createAsk,
  createSession,
  type FormsRuntime,
  type SessionView as FormsSessionView,
  publishSession,
  readAsk,
  readSession,
  withdrawSession,
} from '@sess/forms';
import {
  type AnswerView,
  type BackendContext,
  type SessBackend,
  type SessionSummary,
  type SessionView,
  toAnswerView,
  type UnitOfWork,
} from '@sess/interactions';
import type { ReceiptKeySet } from '@sess/receipts';
import type { FormNotices } from './form-notices.ts';

/*
 * The hosted default behind the MCP tools: @sess/forms called in-process, in the same database.
 * Nothing here is trusted by the tools; they verify every receipt themselves.
 */

function toSessionView(workspaceId: string, view: FormsSessionView): SessionView {
  const state: SessionView['state'] =
    view.state === 'completed'
      ? 'completed'
      : view.state === 'withdrawn'
        ? 'withdrawn'
        : view.state === 'expired'
          ? 'expired'
          : 'open';
  const out: SessionView = {
    sessionId: view.sessionId,
    workspaceId,
    state,
    revision: view.revision,
    surfaceSha256: view.surfaceSha256,
    expiresAt: view.expiresAt,
  };
  if (view.response) out.answer = toAnswerView(view.response);
  return out;
}

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
 * `SESS_UNAVAILABLE` (transient), characters it cannot store `INVALID_ARGUMENTS`; the cause stays
 * attached, so the tools can still tell whether a statement was sent. Everything else as thrown.
 */
function backendError(error: unknown): unknown {
  if (isSessError(error)) return error;
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

/**
 * The in-process SessBackend over a forms runtime.
 *
 * Creates pass the workspace's plan to forms, read at most every 30 s per workspace: a plan
 * without an open-session limit then lets forms write the session in one statement, with no
 * savepoint and no plan read. A plan with a limit is read again by forms under its lock, so the
 * cached name is only a hint there; a plan changed from unlimited to limited takes effect within
 * 30 s.
 */
export function createInProcessBackend(
  runtime: FormsRuntime,
  options: {
    /**
     * The transaction behind a handle store's unit of work (the PostgreSQL store's
     * `transactionOfUnit`): a create in it commits with its handle record.
     */
    transactionOf: (unit: UnitOfWork) => Tx;
    /**
     * The person's notifications (absent: SESS_NOTIFICATIONS=off). They are written in the
     * create's unit of work — the hosted /mcp path — so they commit with the form; a create
     * outside one (no handle store unit) tells no one and reports `notified: false`.
     */
    notices?: FormNotices | undefined;
  },
): SessBackend {
  const notices = options.notices;
  const plans = new Map<string, { plan: string; readAt: number }>();
  // Read through the caller's transaction when there is one: PGlite is a single connection, and a
  // read beside an open transaction would wait for it forever.
  async function planOf(workspaceId: string, tx?: Tx): Promise<string | undefined> {
    const cached = plans.get(workspaceId);
    if (cached && Date.now() - cached.readAt < PLAN_TTL_MS) return cached.plan;
    const row = await (tx ?? runtime.database.db).query.workspaces.findFirst({
      columns: { plan: true },
      where: (workspace, { eq }) => eq(workspace.id, workspaceId),
    });
    if (!row) return undefined;
    if (plans.size >= PLAN_CACHE_MAX) plans.delete(plans.keys().next().value as string);
    plans.set(workspaceId, { plan: row.plan, readAt: Date.now() });
    return row.plan;
  }
  const ctxOf = (ctx: BackendContext, tx?: Tx, plan?: string) => ({
    runtime,
    workspaceId: ctx.workspaceId,
    ...(tx ? { tx } : {}),
    ...(plan !== undefined ? { plan } : {}),
  });
  /** The create's context: inside the unit of work's transaction when it has one. */
  async function createCtx(ctx: BackendContext, unit: UnitOfWork | undefined) {
    const tx = unit ? options.transactionOf(unit) : undefined;
    return { ctx: ctxOf(ctx, tx, await planOf(ctx.workspaceId, tx)), tx };
  }
  return {
    origin: runtime.publicUrl,
    joinsUnitsOfWork: true,

    async createSession(ctx, input, createOptions) {
      return guarded(async () => {
        const args: { interaction: unknown; expires_in?: number } = { interaction: input.surface };
        if (input.expiresIn !== undefined) args.expires_in = input.expiresIn;
        // Inside the unit of work the create and its handle commit together, so there is no lost
        // outcome to replay and no idempotency record to write.
        const { ctx: formsCtx, tx } = await createCtx(ctx, createOptions?.unit);
        const created = await createSession({
          ctx: formsCtx,
          input: args,
          idempotencyKey: tx ? undefined : input.idempotencyKey,
        });
        const notified =
          tx && notices
            ? await notices.form(tx, ctx, {
                sessionId: created.sessionId,
                title: input.surface.title,
                url: created.humanUrl,
                expiresAt: created.expiresAt,
              })
            : false;
        return {
          sessionId: created.sessionId,
          workspaceId: ctx.workspaceId,
          state: 'open',
          revision: created.revision,
          surfaceSha256: created.surfaceSha256,
          expiresAt: created.expiresAt,
          humanUrl: created.humanUrl,
          notified,
        };
      });
    },

    async createAsk(ctx, input, createOptions) {
      return guarded(async () => {
        const { ctx: formsCtx, tx } = await createCtx(ctx, createOptions?.unit);
        const created = await createAsk({
          ctx: formsCtx,
          input: input.ask,
          idempotencyKey: tx ? undefined : input.idempotencyKey,
        });
        // Its owner watches it (told of its answers or its close); the link itself goes to no one,
        // so `notified` stays false: the agent shares it.
        if (tx && notices) {
          await notices.askWatch(tx, ctx, {
            sessionId: created.askId,
            title: input.ask.question,
            url: created.humanUrl,
            expiresAt: created.expiresAt,
          });
        }
        return {
          askId: created.askId,
          workspaceId: ctx.workspaceId,
          state: 'open',
          surfaceSha256: created.surfaceSha256,
          expiresAt: created.expiresAt,
          counts: { started: 0, answered: 0, max: created.ask.max },
          answers: [],
          humanUrl: created.humanUrl,
          notified: false,
        };
      });
    },

    async readSession(ctx, input) {
      return guarded(async () => {
        const view = await readSession({
          ctx: ctxOf(ctx),
          sessionId: input.sessionId,
          revision: input.revision,
          waitMs: input.waitMs,
          signal: input.signal,
        });
        return toSessionView(ctx.workspaceId, view);
      });
    },

    async readAsk(ctx, input) {
      return guarded(async () => {
        const view = await readAsk({ ctx: ctxOf(ctx), askId: input.askId });
        return {
          askId: view.askId,
          workspaceId: ctx.workspaceId,
          state: view.state === 'waiting' ? 'open' : 'closed',
          surfaceSha256: view.surfaceSha256,
          expiresAt: view.expiresAt,
          counts: view.counts,
          answers: view.answers.map((answer) => {
            const out = { ...toAnswerView(answer), respondentId: answer.respondentId ?? '' } as AnswerView & {
              respondentId: string;
              name?: string;
            };
            if (typeof answer.respondentName === 'string') out.name = answer.respondentName;
            return out;
          }),
        };
      });
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
                onPublished: (tx: Tx, published: { view: FormsSessionView; title: string }) =>
                  notices.followUp(tx, ctx, {
                    sessionId: published.view.sessionId,
                    title: published.title,
                    url: input.humanUrl!,
                    expiresAt: published.view.expiresAt,
                  }),
              }
            : {}),
        });
        return toSessionView(ctx.workspaceId, view);
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
        return toSessionView(ctx.workspaceId, view);
      });
    },

    async withdraw(ctx, input) {
      return guarded(async () => {
        const view = await withdrawSession({ ctx: ctxOf(ctx), sessionId: input.sessionId, idempotencyKey: input.idempotencyKey });
        return { sessionId: view.sessionId, state: 'withdrawn', revision: view.revision };
      });
    },

    async listSessions(ctx, input) {
      const summaries = await Promise.all(
        input.sessionIds.slice(0, 50).map(async (sessionId): Promise<SessionSummary | undefined> => {
          try {
            const view = await readSession({ ctx: ctxOf(ctx), sessionId, waitMs: 0 });
            return {
              sessionId,
              state: toSessionView(ctx.workspaceId, view).state,
              revision: view.revision,
              expiresAt: view.expiresAt,
              answered: view.state === 'answered',
            };
          } catch {
            return undefined;
          }
        }),
      );
      return summaries.filter((summary): summary is SessionSummary => summary !== undefined);
    },
  };
}
