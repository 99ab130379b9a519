import { type SessionList, SessionListSchema, type SessionListStatus } from '@sess/contract';
import { type CallOptions, type ClientConfig, type SessResult, sendRead } from '../http/send-request.ts';

/** The query of `GET /v1/sessions`, spelled as on the wire. */
export interface ListSessionsQuery {
  /** Only these statuses (any of them); default all. */
  status?: readonly SessionListStatus[] | undefined;
  kind?: 'interaction' | 'ask' | undefined;
  /** Rows per page, 1–100 (default 50). */
  limit?: number | undefined;
  /** `nextCursor` of the previous page. */
  cursor?: string | undefined;
}

/** `GET /v1/sessions`: sessions and Asks, newest first, a page at a time (never the link or answer data). */
export async function listSessions(
  config: ClientConfig,
  query: ListSessionsQuery = {},
  options?: CallOptions,
): Promise<SessResult<SessionList>> {
  const search = new URLSearchParams();
  if (query.status !== undefined && query.status.length > 0) search.set('status', query.status.join(','));
  if (query.kind !== undefined) search.set('kind', query.kind);
  if (query.limit !== undefined) search.set('limit', String(query.limit));
  if (query.cursor !== undefined) search.set('cursor', query.cursor);
  return sendRead(config, { operation: 'listSessions', path: '/v1/sessions', query: search, schema: SessionListSchema }, options);
}
