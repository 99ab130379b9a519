import { type CreateAskRequest, type CreatedAsk, CreatedAskSchema } from '@sess/contract';
import { type ClientConfig, type SessWriteResult, sendWrite, type WriteOptions } from '../http/send-request.ts';

/**
 * `POST /v1/asks` with sess_ask's arguments and `respondents` (many people, one shared link).
 * `humanUrl` is shown only here.
 */
export async function createAsk(
  config: ClientConfig,
  input: CreateAskRequest,
  options?: WriteOptions,
): Promise<SessWriteResult<CreatedAsk>> {
  return sendWrite(config, { operation: 'createAsk', path: '/v1/asks', body: input, schema: CreatedAskSchema }, options);
}
