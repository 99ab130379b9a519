import { type EventPage, EventPageSchema } from '@sess/contract';
import { type CallOptions, type ClientConfig, type SessResult, sendRead } from '../http/send-request.ts';
import { pathId } from './path-id.ts';

/** The query of `GET /v1/sessions/{id}/events`. */
export interface SessionEventsQuery {
  /** Events per page, 1–500 (default 100). */
  limit?: number | undefined;
  /** `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

/** `GET /v1/sessions/{id}/events`: what happened to a session or Ask, oldest first (no form text, answer or link). */
export async function listSessionEvents(
  config: ClientConfig,
  sessionId: string,
  query: SessionEventsQuery = {},
  options?: CallOptions,
): Promise<SessResult<EventPage>> {
  const id = pathId('listSessionEvents', 'sessionId', sessionId);
  const search = new URLSearchParams();
  if (query.limit !== undefined) search.set('limit', String(query.limit));
  if (query.cursor !== undefined) search.set('cursor', query.cursor);
  return sendRead(
    config,
    { operation: 'listSessionEvents', path: `/v1/sessions/${id}/events`, query: search, schema: EventPageSchema },
    options,
  );
}
