import { type CreatedSession, CreatedSessionSchema, type CreateSessionRequest } from '@sess/contract';
import { type ClientConfig, type SessWriteResult, sendWrite, type WriteOptions } from '../http/send-request.ts';

/**
 * `POST /v1/sessions` with sess_request's arguments (`{ interaction, expires_in? }`). The result
 * holds `humanUrl`, the private link, shown only here: give it to the person, keep it out of logs.
 */
export async function createSession(
  config: ClientConfig,
  input: CreateSessionRequest,
  options?: WriteOptions,
): Promise<SessWriteResult<CreatedSession>> {
  return sendWrite(
    config,
    { operation: 'createSession', path: '/v1/sessions', body: input, schema: CreatedSessionSchema },
    options,
  );
}
