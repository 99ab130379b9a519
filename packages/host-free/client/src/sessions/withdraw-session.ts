import { type WithdrawnSession, WithdrawnSessionSchema } from '@sess/contract';
import { type ClientConfig, type SessWriteResult, sendWrite, type WriteOptions } from '../http/send-request.ts';
import { pathId } from './path-id.ts';

/** `POST /v1/sessions/:id/withdraw`: the page says the question was withdrawn. Idempotent; closes an Ask too. */
export async function withdrawSession(
  config: ClientConfig,
  sessionId: string,
  options?: WriteOptions,
): Promise<SessWriteResult<WithdrawnSession>> {
  const operation = 'withdrawSession';
  return sendWrite(
    config,
    {
      operation,
      path: `/v1/sessions/${pathId(operation, 'sessionId', sessionId)}/withdraw`,
      body: {},
      schema: WithdrawnSessionSchema,
    },
    options,
  );
}
