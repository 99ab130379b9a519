import { type SessionView, SessionViewSchema } from '@sess/contract';
import { type ClientConfig, type SessWriteResult, sendWrite, type WriteOptions } from '../http/send-request.ts';
import { checkRevision, pathId } from './path-id.ts';

/** sess_complete's arguments, spelled as on the wire (the session id goes in the path). */
export interface CompleteSessionInput {
  /** The revision answered, sent as `If-Match`. */
  expected_revision: number;
  /** The `eventId` of that revision's answer. */
  response_event_id: string;
}

/**
 * `POST /v1/sessions/:id/complete` with `If-Match`: the link closes and the person's page says
 * the agent has their answer. After an answer with no follow-up, this is the next call.
 */
export async function completeSession(
  config: ClientConfig,
  sessionId: string,
  input: CompleteSessionInput,
  options?: WriteOptions,
): Promise<SessWriteResult<SessionView>> {
  const operation = 'completeSession';
  return sendWrite(
    config,
    {
      operation,
      path: `/v1/sessions/${pathId(operation, 'sessionId', sessionId)}/complete`,
      ifMatch: checkRevision(operation, 'expected_revision', input?.expected_revision),
      body: { response_event_id: input.response_event_id },
      schema: SessionViewSchema,
    },
    options,
  );
}
