/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The longest caller-chosen request id kept. */
export const REQUEST_ID_MAX_LENGTH = 64;

/**
 * The request's id, decided as `hono/request-id` decides it (the app's middleware for every other
 * route): the caller's `X-Request-Id` when it is at most 64 word characters, `-` or `=`, else a
 * fresh UUID.
 */
export function requestIdOf(headers: Headers): string {
  const given = headers.get(REQUEST_ID_HEADER);
  if (!given || given.length > REQUEST_ID_MAX_LENGTH || /[^\w\-=]/.test(given)) return crypto.randomUUID();
  return given;
}
