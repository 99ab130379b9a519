import type { IncomingMessage } from 'node:http';
import { type BodyRead, NEVER_EXPIRES, readNodeBody, readWebBody, SessError } from '@sess/core';

/** Largest /v1 request body: one 32 KiB interaction plus its envelope, with room to spare. */
export const V1_BODY_LIMIT_BYTES = 64 * 1024;

function tooLarge(limit: number): SessError {
  return new SessError('PAYLOAD_TOO_LARGE', `The request body is over ${limit} bytes.`, { limit });
}

/** Where a body comes from: the web Request, and on @hono/node-server the Node stream behind it. */
export interface BodySource {
  request: Request;
  /** Read directly when present: building the web stream costs more than the rest of the read. */
  incoming?: IncomingMessage | undefined;
}

/**
 * Reads a JSON body of at most `limit` bytes: a larger `Content-Length` is refused before a
 * byte is read, a larger streamed body as soon as it passes the limit. An empty body is
 * `undefined`; anything else must be `application/json` and parse.
 * @throws SessError `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`, `INVALID_ARGUMENTS` (field `""`:
 * not JSON, or the body broke off mid-way).
 */
export async function readJsonBody({ request, incoming }: BodySource, limit = V1_BODY_LIMIT_BYTES): Promise<unknown> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  const read: BodyRead = incoming
    ? await readNodeBody(incoming, limit, NEVER_EXPIRES)
    : await readWebBody(request.body, limit, NEVER_EXPIRES);
  if (read.kind === 'too_large') throw tooLarge(limit);
  if (read.kind !== 'ok') {
    throw new SessError('INVALID_ARGUMENTS', 'The request body did not arrive in full. Send it again.', { field: '' });
  }
  if (read.text === '') return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new SessError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.', {
      header: 'Content-Type',
    });
  }
  try {
    return JSON.parse(read.text);
  } catch {
    throw new SessError('INVALID_ARGUMENTS', 'The request body is not valid JSON.', { field: '' });
  }
}
