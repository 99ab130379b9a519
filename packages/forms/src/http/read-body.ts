import { SessError } from '@sess/core';

/** Largest /v1 request body: one 32 KiB interaction plus its envelope, with room to spare. */
export const V1_BODY_LIMIT_BYTES = 64 * 1024;

function tooLarge(limit: number): SessError {
  return new SessError('PAYLOAD_TOO_LARGE', `The request body is over ${limit} bytes.`, { limit });
}

/**
 * Reads a JSON body of at most `limit` bytes: a larger `Content-Length` is refused before a
 * byte is read, a larger streamed body as soon as it passes the limit. An empty body is
 * `undefined`; anything else must be `application/json` and parse.
 * @throws SessError `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`, `INVALID_ARGUMENTS` (field `""`).
 */
export async function readJsonBody(request: Request, limit = V1_BODY_LIMIT_BYTES): Promise<unknown> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  if (size === 0) return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new SessError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.', {
      header: 'Content-Type',
    });
  }
  const text = Buffer.concat(chunks, size).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new SessError('INVALID_ARGUMENTS', 'The request body is not valid JSON.', { field: '' });
  }
}
