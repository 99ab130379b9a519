/*
 * The header-only checks made before any body byte is read: Host allowlist (DNS rebinding),
 * exact Origin allowlist (a request without Origin is a non-browser client and passes) and CORS
 * for allowed browser origins. The RFC 6750 challenges are core's `bearerChallenge`.
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http (Security)
 */

/** A normalised Host allowlist: exact `host[:port]` entries; an entry without a port matches any port. */
export interface HostAllowlist {
  exact: ReadonlySet<string>;
  anyPort: ReadonlySet<string>;
}

export function createHostAllowlist(hosts: readonly string[]): HostAllowlist {
  if (hosts.length === 0) throw new Error('allowedHosts must name at least one host.');
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  for (const entry of hosts) {
    const host = entry.trim().toLowerCase();
    exact.add(host);
    if (!/:\d+$/.test(host)) anyPort.add(host);
  }
  return { exact, anyPort };
}

/** The hostname part of a Host header value (`[::1]:80` → `[::1]`). */
function hostnameOf(host: string): string {
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host);
  return match?.[1] ?? host;
}

export function isHostAllowed(host: string | null | undefined, allow: HostAllowlist): boolean {
  if (!host) return false;
  const value = host.toLowerCase();
  return allow.exact.has(value) || allow.anyPort.has(hostnameOf(value));
}

/** Exact browser origins (`https://claude.ai`), lower-cased. */
export type OriginAllowlist = ReadonlySet<string>;

/** Exact origins; compared case-insensitively as browsers serialise them lower-case. */
export function createOriginAllowlist(origins: readonly string[] = []): OriginAllowlist {
  return new Set(origins.map((origin) => origin.trim().toLowerCase().replace(/\/+$/, '')));
}

/** Absent Origin passes (non-browser clients); a present one must be listed exactly. */
export function isOriginAllowed(origin: string | null | undefined, allow: OriginAllowlist): boolean {
  if (origin === null || origin === undefined || origin === '') return true;
  return allow.has(origin.toLowerCase());
}

const EXPOSED = 'WWW-Authenticate, Retry-After, Mcp-Session-Id, Mcp-Protocol-Version';
const ALLOWED_REQUEST_HEADERS =
  'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';

/** CORS headers for an allowed browser origin; none without an Origin. */
export function corsHeaders(origin: string | null | undefined, preflight: boolean): Record<string, string> {
  if (!origin) return {};
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSED,
    Vary: 'Origin',
  };
  if (preflight) {
    headers['Access-Control-Allow-Methods'] = 'POST, GET, OPTIONS';
    headers['Access-Control-Allow-Headers'] = ALLOWED_REQUEST_HEADERS;
    headers['Access-Control-Max-Age'] = '600';
  }
  return headers;
}
