import { type AskView, AskViewSchema } from '@sess/contract';
import { type CallOptions, type ClientConfig, type SessResult, sendRead } from '../http/send-request.ts';
import { pathId } from '../sessions/path-id.ts';

/** `GET /v1/asks/:id`: open or closed, the counts, and every answer so far with its receipt (read at once, no wait). */
export async function readAsk(config: ClientConfig, askId: string, options?: CallOptions): Promise<SessResult<AskView>> {
  const operation = 'readAsk';
  return sendRead(config, { operation, path: `/v1/asks/${pathId(operation, 'askId', askId)}`, schema: AskViewSchema }, options);
}
