/** Where a person lands after signing in when no safe `return_to` was given. */
export const DEFAULT_RETURN_TO = '/account';

// Long enough for an /oauth/authorize URL carrying a CIMD client_id, a redirect URI, state,
// PKCE challenge, scope and resource; short enough to keep cookies and forms small.
const MAX_RETURN_TO = 4096;

const BASE = 'http://return-to.invalid';

/**
 * `value` when it is a same-origin relative path, else null. Allowed: one leading `/`, then
 * printable ASCII without `\`. Refused: `//host` and `/\host` (protocol-relative in browsers),
 * schemes (`https:`, `javascript:`), control characters and whitespace (browsers strip tabs and
 * newlines, turning `/\t/evil.com` into `//evil.com`), and anything the URL parser would move
 * to another origin.
 */
export function parseReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_TO) return null;
  if (value[0] !== '/' || value[1] === '/' || value[1] === '\\') return null;
  if (!/^[\x21-\x7e]+$/.test(value) || value.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  return value;
}

/** `value` when it is a safe same-origin path (see `parseReturnTo`), else `/account`. */
export function safeReturnTo(value: unknown): string {
  return parseReturnTo(value) ?? DEFAULT_RETURN_TO;
}
