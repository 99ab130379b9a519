import { type PublishSessionRequest, type SessionView, SessionViewSchema } from '@sess/contract';
import { type ClientConfig, type SessWriteResult, sendWrite, type WriteOptions } from '../http/send-request.ts';
import { checkRevision, pathId } from './path-id.ts';

/** sess_publish's arguments, spelled as on the wire (the session id goes in the path). */
export interface PublishSessionInput {
  /** The revision answered, sent as `If-Match`; a stale one is `api` REVISION_MISMATCH with `currentRevision`. */
  expected_revision: number;
  /** The `eventId` of that revision's answer. */
  response_event_id: string;
  /** The next Surface, shown on the same link at revision + 1. */
  interaction: PublishSessionRequest['interaction'];
}

/** `POST /v1/sessions/:id/publish` with `If-Match`: a follow-up on the same link, at the next revision. */
export async function publishSession(
  config: ClientConfig,
  sessionId: string,
  input: PublishSessionInput,
  options?: WriteOptions,
): Promise<SessWriteResult<SessionView>> {
  const operation = 'publishSession';
  return sendWrite(
    config,
    {
      operation,
      path: `/v1/sessions/${pathId(operation, 'sessionId', sessionId)}/publish`,
      ifMatch: checkRevision(operation, 'expected_revision', input?.expected_revision),
      body: { response_event_id: input.response_event_id, interaction: input.interaction },
      schema: SessionViewSchema,
    },
    options,
  );
}
