import { NEVER_EXPIRES, readWebBody } from '@sess/core';
import type { Context } from 'hono';
import { OAuthError } from '../errors/oauth-error.ts';

/**
 * Reads an `application/x-www-form-urlencoded` body (the only encoding the token, revocation and
 * consent endpoints take), at most `maxBytes`.
 * @throws OAuthError `invalid_request`
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3
 */
export async function readFormBody(c: Context, maxBytes: number): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  const text = await readCappedText(c, maxBytes, () => new OAuthError('invalid_request', 'The body is too large.'));
  return new URLSearchParams(text);
}

/**
 * The body as text, at most `maxBytes`: a larger `Content-Length` is refused before a byte is
 * read, a larger streamed body as soon as it passes the limit. A broken stream throws what it raised.
 */
async function readCappedText(c: Context, maxBytes: number, tooLarge: () => OAuthError): Promise<string> {
  if (Number(c.req.header('content-length') ?? 0) > maxBytes) throw tooLarge();
  const read = await readWebBody(c.req.raw.body, maxBytes, NEVER_EXPIRES);
  if (read.kind === 'ok') return read.text;
  if (read.kind === 'aborted') throw read.cause;
  throw tooLarge(); // too large (a read with no deadline never times out)
}

/** Refuses a body in which any parameter appears twice (RFC 6749 §3.2: "MUST NOT be included more than once"). */
export function checkNoRepeats(params: URLSearchParams): void {
  for (const name of new Set(params.keys())) {
    if (params.getAll(name).length > 1) throw new OAuthError('invalid_request', `${name} is repeated.`);
  }
}

/** Reads and JSON-parses a body of at most `maxBytes`. @throws OAuthError `invalid_client_metadata` */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    throw new OAuthError('invalid_client_metadata', 'The body must be application/json.');
  const text = await readCappedText(
    c,
    maxBytes,
    () => new OAuthError('invalid_client_metadata', `The body is larger than ${maxBytes} bytes.`),
  );
  try {
    return JSON.parse(text);
  } catch {
    throw new OAuthError('invalid_client_metadata', 'The body is not valid JSON.');
  }
}
