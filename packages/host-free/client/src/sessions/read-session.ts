import { MAX_WAIT_MS, type SessionView, SessionViewSchema } from '@sess/contract';
import { SessClientError } from '../errors/sess-client-error.ts';
import { type CallOptions, type ClientConfig, type SessResult, sendRead } from '../http/send-request.ts';
import { checkRevision, pathId } from './path-id.ts';

/** The query of a session read, spelled as on the wire. */
export interface ReadSessionQuery {
  /** The revision to read (default the current one). */
  revision?: number | undefined;
  /** Hold the read up to this long (0–45000 ms) until the revision is answered, completed, expired or withdrawn. */
  wait_ms?: number | undefined;
}

/**
 * `GET /v1/sessions/:id`: the session at its current revision (or `revision`), with the answer
 * and its receipt once there is one. With `wait_ms` the server holds the request until
 * something happens, and the deadline is extended by that much.
 */
export async function readSession(
  config: ClientConfig,
  sessionId: string,
  query: ReadSessionQuery = {},
  options?: CallOptions,
): Promise<SessResult<SessionView>> {
  const operation = 'readSession';
  const search = new URLSearchParams();
  if (query.revision !== undefined) search.set('revision', String(checkRevision(operation, 'revision', query.revision)));
  const waitMs = query.wait_ms;
  if (waitMs !== undefined) {
    if (!Number.isSafeInteger(waitMs) || waitMs < 0 || waitMs > MAX_WAIT_MS) {
      throw new SessClientError({
        kind: 'configuration',
        operation,
        message: `wait_ms must be a whole number from 0 to ${MAX_WAIT_MS}.`,
      });
    }
    search.set('wait_ms', String(waitMs));
  }
  return sendRead(
    config,
    {
      operation,
      path: `/v1/sessions/${pathId(operation, 'sessionId', sessionId)}`,
      query: search,
      schema: SessionViewSchema,
      serverWaitMs: waitMs,
    },
    options,
  );
}
