/**
 * Redirect URIs: which may be registered, and whether a requested one matches.
 *
 * Registered values are stored exactly as sent and compared as strings (OAuth 2.1 §2.3.1,
 * RFC 6749 §3.1.2.3). The one exception is RFC 8252 §7.3: a loopback redirect matches
 * whatever its port, because native clients (Claude Code, Cline, Cursor's local flow) listen
 * on a random port while their metadata names none. Nothing is normalised before comparing, so
 * `LOCALHOST`, `127.000.000.001`, `/x/../`, `:443`, an upper-case host or user-info never match
 * a registration that does not spell them the same way.
 */

const MAX_REDIRECT_URI_LENGTH = 2000;

// Schemes a redirect may never use: script, inline data, local files, browser internals.
const FORBIDDEN_SCHEMES = new Set([
  'javascript',
  'data',
  'file',
  'vbscript',
  'about',
  'blob',
  'filesystem',
  'view-source',
  'chrome',
  'ws',
  'wss',
]);

// The literal loopback forms RFC 8252 §7.3 names, spelled in lower case, parsed from the raw string.
const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(\/[^?#]*)?(\?[^#]*)?$/;

export type RedirectUriKind = 'https' | 'loopback' | 'private-use';

export type RedirectUriCheck =
  | { ok: true; kind: RedirectUriKind }
  /** `unsafe`: refuses the whole registration. Otherwise the URI is only dropped from it. */
  | { ok: false; unsafe: boolean; reason: string };

interface LoopbackParts {
  host: string;
  port: number | null;
  path: string;
  query: string;
}

function parseLoopback(uri: string): LoopbackParts | null {
  const match = LOOPBACK.exec(uri);
  if (!match) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65_535 || match[2]!.startsWith('0'))) return null;
  return { host: match[1]!, port, path: match[3] ?? '', query: match[4] ?? '' };
}

function hasDotSegment(path: string): boolean {
  return path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/**
 * Whether `uri` may be registered (DCR or CIMD). https and loopback http are the web and
 * native cases; any other scheme is a private-use scheme (RFC 8252 §7.1: `cursor://…`,
 * `vscode://…`), accepted because PKCE protects the code. Fragments, user-info, dot segments
 * and script-capable schemes are unsafe. Plain http to a non-loopback host is dropped, not fatal:
 * one odd URI must not sink a registration that also lists good ones.
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2
 */
export function checkRedirectUriForRegistration(uri: string): RedirectUriCheck {
  if (typeof uri !== 'string' || uri.length === 0) return { ok: false, unsafe: true, reason: 'is empty' };
  if (uri.length > MAX_REDIRECT_URI_LENGTH)
    return { ok: false, unsafe: true, reason: `is longer than ${MAX_REDIRECT_URI_LENGTH} characters` };
  if (!/^[\x21-\x7e]+$/.test(uri)) return { ok: false, unsafe: true, reason: 'contains spaces or non-ASCII characters' };
  if (uri.includes('#')) return { ok: false, unsafe: true, reason: 'has a fragment' };
  if (!URL.canParse(uri)) return { ok: false, unsafe: true, reason: 'is not an absolute URI' };
  const scheme = uri.slice(0, uri.indexOf(':')).toLowerCase();
  if (FORBIDDEN_SCHEMES.has(scheme)) return { ok: false, unsafe: true, reason: `uses the ${scheme}: scheme` };
  const url = new URL(uri);
  if (url.username || url.password || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(uri)) {
    return { ok: false, unsafe: true, reason: 'carries user-info' };
  }
  if (hasDotSegment(uri.replace(/^[a-z][a-z0-9+.-]*:(\/\/[^/?#]*)?/i, '').split('?')[0] ?? '')) {
    return { ok: false, unsafe: true, reason: 'has dot segments' };
  }
  if (scheme === 'https') {
    if (!url.hostname) return { ok: false, unsafe: true, reason: 'has no host' };
    return { ok: true, kind: 'https' };
  }
  if (scheme === 'http') {
    if (parseLoopback(uri)) return { ok: true, kind: 'loopback' };
    return { ok: false, unsafe: false, reason: 'is plain http to a host other than localhost, 127.0.0.1 or [::1]' };
  }
  return { ok: true, kind: 'private-use' };
}

/**
 * The registered redirect URI that `requested` matches, or null. Exact string equality, or
 * for loopback: same literal host, path and query, any port.
 * @see https://www.rfc-editor.org/rfc/rfc8252#section-7.3
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.1.1
 */
export function matchRedirectUri(registered: readonly string[], requested: string): string | null {
  if (registered.includes(requested)) return requested;
  const wanted = parseLoopback(requested);
  if (!wanted) return null;
  for (const candidate of registered) {
    const have = parseLoopback(candidate);
    if (have && have.host === wanted.host && have.path === wanted.path && have.query === wanted.query) return candidate;
  }
  return null;
}

/** What kind of place a (registered or requested) redirect URI sends a person to. */
export function redirectUriKind(uri: string): RedirectUriKind {
  if (parseLoopback(uri)) return 'loopback';
  return uri.toLowerCase().startsWith('https:') ? 'https' : 'private-use';
}

/** The host a person is shown for a redirect: `claude.ai`, `localhost`, or `cursor:` for an app scheme. */
export function displayRedirectHost(uri: string): string {
  const loopback = parseLoopback(uri);
  if (loopback) return loopback.host;
  if (uri.toLowerCase().startsWith('https:') && URL.canParse(uri)) return new URL(uri).host;
  return `${uri.slice(0, uri.indexOf(':')).toLowerCase()}:`;
}

/**
 * The CSP `form-action` source that lets the consent form's redirect reach `uri` (Chrome checks
 * form-action on the redirect after a post). An IPv6 loopback cannot be written as a CSP host,
 * so it gets the `http:` scheme source.
 */
export function formActionSource(uri: string): string {
  const loopback = parseLoopback(uri);
  if (loopback) {
    if (loopback.host === '[::1]') return 'http:';
    return `http://${loopback.host}${loopback.port === null ? '' : `:${loopback.port}`}`;
  }
  if (uri.toLowerCase().startsWith('https:') && URL.canParse(uri)) return new URL(uri).origin;
  return `${uri.slice(0, uri.indexOf(':')).toLowerCase()}:`;
}
