/**
 * `localhost`, 127.0.0.0/8 and `[::1]`: names Node's resolver keeps on this computer. Not
 * `*.localhost` (which isLoopbackHostname takes for the start-up text): getaddrinfo sends such a
 * name to DNS, and a key sent in clear text would go wherever DNS points.
 */
function reachesOnlyThisComputer(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Why a value is not an API origin: not a URL, credentials in it, more than an origin, or plain http off this computer. */
export type ApiOriginProblem = 'not_url' | 'credentials' | 'not_origin' | 'insecure';

export type ApiOriginCheck = { ok: true; origin: string } | { ok: false; problem: ApiOriginProblem };

/**
 * The one rule for the Sess API origin every client takes (@sess/client, sess-mcp, the OpenClaw
 * plugin): `https://host[:port]` without path, query, fragment or credentials (a trailing `/` is
 * fine), or plain `http://` to a loopback host, as MCP clients take it: the API key travels in
 * every request, and only there it does not cross a network. Each caller words the problem for
 * its own reader.
 */
export function checkApiOrigin(raw: string): ApiOriginCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'not_url' };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'credentials' };
  // `new URL` turns an empty path into "/" and drops dot segments: anything after the host's "/",
  // or a "?" or "#" even when empty, is more than an origin.
  if (
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    /[?#]/.test(raw) ||
    /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/./i.test(raw)
  )
    return { ok: false, problem: 'not_origin' };
  if (url.protocol === 'https:') return { ok: true, origin: url.origin };
  if (url.protocol === 'http:' && reachesOnlyThisComputer(url.hostname)) return { ok: true, origin: url.origin };
  return { ok: false, problem: 'insecure' };
}
