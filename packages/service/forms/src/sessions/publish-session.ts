import { PublishSessionRequestSchema } from '@sess/contract';
import type { Tx } from '@sess/db';
import { hashSurface, parseArguments, parseSurface } from '@sess/surface';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { runIdempotent } from '../idempotency/run-idempotent.ts';
import { isoParam } from '../model/sql-values.ts';
import type { SessionView } from '../model/views.ts';
import { FORM_EVENTS_CHANNEL, formEventPayload } from '../waits/waiter-hub.ts';
import type { WorkspaceContext } from './context.ts';
import { lockSession } from './lock-session.ts';
import { checkExpectedRevision, checkPublishable, checkRevisionWrite } from './revision-write.ts';

/** The publish body as the contract has it, with the interaction left to `parseSurface` (code points, the seed's words). */
const PUBLISH_ENVELOPE = PublishSessionRequestSchema.extend({ interaction: z.unknown() });

export interface PublishSessionInput {
  ctx: WorkspaceContext;
  sessionId: string;
  /** The revision the agent acts on (If-Match). */
  expectedRevision: number;
  /** Required: an identical repeat returns the same result; the same key with another request is refused. */
  idempotencyKey: string;
  /** `{ response_event_id, interaction }`. */
  input: unknown;
  /**
   * Called in the publish's transaction once the new revision is written (never on an
   * idempotent replay), so what it writes commits with the publish or not at all: apps/server
   * enqueues the person's follow-up notification here.
   */
  onPublished?: (tx: Tx, published: { view: SessionView; title: string }) => Promise<void>;
}

/**
 * Shows the next Surface on the same link, at revision + 1. Needs the answer event of the
 * expected revision (the person answered what the agent acts on). Wakes every wait on the
 * session (the person's page shows the next form).
 * @throws SessError `INVALID_ARGUMENTS`, `NOT_FOUND`, `INVALID_STATE` (an Ask, withdrawn,
 * completed, not answered yet, expired), `REVISION_MISMATCH` (names the current revision in the
 * message and `details.currentRevision`), `RESPONSE_MISMATCH`, `IDEMPOTENCY_KEY_REUSED`.
 */
export async function publishSession(request: PublishSessionInput): Promise<SessionView> {
  const { ctx, sessionId, expectedRevision, idempotencyKey } = request;
  checkExpectedRevision(expectedRevision);
  const body = parseArguments(PUBLISH_ENVELOPE, request.input);
  const responseEventId = body.response_event_id;
  const surface = parseSurface(body.interaction, '/interaction');
  const { runtime } = ctx;
  const { value } = await runIdempotent(
    runtime,
    ctx.workspaceId,
    {
      key: idempotencyKey,
      operation: `sessions.publish ${sessionId}`,
      request: { expectedRevision, body: request.input },
    },
    async (tx) => {
      const now = runtime.now();
      const locked = await lockSession(tx, ctx.workspaceId, sessionId);
      checkRevisionWrite(locked, expectedRevision, responseEventId, 'publish');
      checkPublishable(locked, now);
      const next = expectedRevision + 1;
      const surfaceSha256 = hashSurface(surface);
      // One statement: the revision, the session's pointer to it, and the wake of every wait.
      const last = sql`with r as (
              insert into form_revisions (session_id, revision, workspace_id, surface, surface_sha256, created_at)
              values (${sessionId}, ${next}, ${ctx.workspaceId}, ${JSON.stringify(surface)}::json, ${surfaceSha256},
                      ${isoParam(now)}::timestamptz)
              returning session_id),
            up as (
              update form_sessions set current_revision = ${next}
               where id = ${sessionId} and workspace_id = ${ctx.workspaceId} and id in (select session_id from r)
              returning id)
            select pg_notify(${FORM_EVENTS_CHANNEL}, ${formEventPayload(sessionId, next)}) as notified from up`;
      const s = locked.session;
      const view: SessionView = {
        sessionId,
        kind: 'interaction',
        revision: next,
        state: 'waiting',
        createdAt: s.createdAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        deadlineAt: s.deadlineAt.toISOString(),
        horizonAt: s.horizonAt?.toISOString() ?? null,
        extendable: s.extendable,
        surfaceSha256,
        completedAt: null,
        withdrawnAt: null,
        response: null,
      };
      // What the hook writes needs the session, not its new revision: it goes first, and the
      // revision with the idempotency record.
      await request.onPublished?.(tx, { view, title: surface.title });
      return { value: view, last };
    },
  );
  return value;
}
