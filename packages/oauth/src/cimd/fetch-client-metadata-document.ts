import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from './address-policy.ts';
import { cacheLifetimeSeconds } from './cache-lifetime.ts';

/**
 * `public`: production. https only, public unicast addresses only.
 * `loopback-only`: the test flag (`SESS_TEST_ALLOW_LOOPBACK_CIMD=1`). http or https to a
 * loopback address only, and no DNS except `localhost`, so a test never sends a packet off the
 * machine (vendor URLs then fail and fall back to their pinned copies).
 */
export type CimdFetchPolicy = 'public' | 'loopback-only';

export type CimdFetchFailure =
  | 'url_not_allowed'
  | 'address_not_allowed'
  | 'dns_failed'
  | 'timeout'
  | 'redirect'
  | 'bad_status'
  | 'too_large'
  | 'not_json'
  | 'network';

export type CimdFetchResult =
  | { ok: true; document: unknown; maxAgeSeconds: number }
  | { ok: false; reason: CimdFetchFailure; message: string };

/** Resolves a host name to every address it has (injectable so unit tests need no real DNS). */
export type ResolveHost = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface FetchClientMetadataOptions {
  policy: CimdFetchPolicy;
  /** Deadline for the whole exchange, body included. Default 5 s. */
  timeoutMs?: number;
  /** Largest body accepted. Default 32 KiB (real vendor documents run 4–8 KB). */
  maxBytes?: number;
  resolveHost?: ResolveHost;
}

export const CIMD_DEFAULT_TIMEOUT_MS = 5_000;
export const CIMD_MAX_BYTES = 32 * 1024;
const MAX_URL_LENGTH = 2048;

const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The shape rules of a metadata document URL: https (http only under the loopback test policy),
 * a path other than `/`, no fragment, no user-info, no dot segments. The string is used as is,
 * never normalised: the document's `client_id` must equal it exactly.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document#section-3
 */
export function checkMetadataUrl(
  clientId: string,
  policy: CimdFetchPolicy,
): { ok: true; url: URL } | { ok: false; message: string } {
  if (clientId.length > MAX_URL_LENGTH) return { ok: false, message: `is longer than ${MAX_URL_LENGTH} characters` };
  if (!/^[\x21-\x7e]+$/.test(clientId) || !URL.canParse(clientId)) return { ok: false, message: 'is not a URL' };
  const url = new URL(clientId);
  const schemes = policy === 'public' ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol) || !clientId.toLowerCase().startsWith(url.protocol))
    return { ok: false, message: 'is not https' };
  if (clientId.includes('#')) return { ok: false, message: 'has a fragment' };
  if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(clientId)) return { ok: false, message: 'carries user-info' };
  const rawPath = clientId.replace(/^[a-z]+:\/\/[^/?#]*/i, '').split('?')[0] ?? '';
  if (rawPath === '' || rawPath === '/') return { ok: false, message: 'has no path' };
  if (rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return { ok: false, message: 'has dot segments' };
  return { ok: true, url };
}

/** The addresses to connect to, every one of them allowed by the policy, or why not. */
async function resolveAllowed(
  hostname: string,
  policy: CimdFetchPolicy,
  resolveHost: ResolveHost,
): Promise<
  { ok: true; addresses: Array<{ address: string; family: number }> } | { ok: false; reason: CimdFetchFailure; message: string }
> {
  const allowed = policy === 'public' ? isPublicAddress : isLoopbackAddress;
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else if (policy === 'loopback-only' && hostname !== 'localhost') {
    return {
      ok: false,
      reason: 'address_not_allowed',
      message: `${hostname} is not loopback (test policy resolves no other names)`,
    };
  } else {
    try {
      addresses = await resolveHost(hostname);
    } catch (error) {
      return { ok: false, reason: 'dns_failed', message: `DNS lookup failed (${(error as { code?: string }).code ?? 'error'})` };
    }
    if (addresses.length === 0) return { ok: false, reason: 'dns_failed', message: 'DNS returned no address' };
  }
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused) return { ok: false, reason: 'address_not_allowed', message: `address ${refused.address} is not allowed` };
  return { ok: true, addresses };
}

/**
 * Fetches a Client ID Metadata Document with SSRF defences:
 * - the URL shape check above; the host resolved once and EVERY address checked against the
 *   policy before any connection (a name with one private address among public ones fails);
 * - the connection goes to the checked address (a pinned `lookup`), so DNS rebinding between
 *   check and connect cannot redirect it; TLS still verifies the certificate for the host name;
 * - redirects are refused, only 200 is accepted, the body is capped (32 KiB) and the whole
 *   exchange has one deadline; no cookies, no credentials, no proxy.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document#section-4
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization (SSRF)
 */
export async function fetchClientMetadataDocument(
  clientId: string,
  options: FetchClientMetadataOptions,
): Promise<CimdFetchResult> {
  const { policy } = options;
  const timeoutMs = options.timeoutMs ?? CIMD_DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? CIMD_MAX_BYTES;
  const shape = checkMetadataUrl(clientId, policy);
  if (!shape.ok) return { ok: false, reason: 'url_not_allowed', message: `client_id URL ${shape.message}` };
  const { url } = shape;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const resolved = await resolveAllowed(hostname, policy, options.resolveHost ?? systemResolve);
  if (!resolved.ok) return resolved;
  const target = resolved.addresses[0]!;
  const pinnedLookup: LookupFunction = (_host, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) {
      (callback as unknown as (e: null, all: Array<{ address: string; family: number }>) => void)(null, [target]);
    } else {
      callback(null, target.address, target.family);
    }
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<CimdFetchResult>((resolve) => {
    let settled = false;
    const finish = (result: CimdFetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(result);
    };
    const request = client.request({
      protocol: url.protocol,
      hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { host: url.host, accept: 'application/json', 'user-agent': 'Sess-OAuth (client-id-metadata-document fetcher)' },
      lookup: pinnedLookup,
      ...(isIP(hostname) ? {} : { servername: hostname }),
      agent: false,
    });
    const deadline = setTimeout(
      () => finish({ ok: false, reason: 'timeout', message: `no complete answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    request.on('error', (error) =>
      finish({ ok: false, reason: 'network', message: (error as { code?: string }).code ?? error.message }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400)
        return finish({ ok: false, reason: 'redirect', message: `answered ${status}; redirects are refused` });
      if (status !== 200) return finish({ ok: false, reason: 'bad_status', message: `answered ${status}` });
      if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
        return finish({ ok: false, reason: 'too_large', message: `body over ${maxBytes} bytes` });
      }
      const chunks: Buffer[] = [];
      let total = 0;
      response.on('data', (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > maxBytes) return finish({ ok: false, reason: 'too_large', message: `body over ${maxBytes} bytes` });
        chunks.push(chunk);
      });
      response.on('error', (error) => finish({ ok: false, reason: 'network', message: error.message }));
      response.on('end', () => {
        if (settled) return;
        try {
          const document: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          finish({ ok: true, document, maxAgeSeconds: cacheLifetimeSeconds(response.headers['cache-control']) });
        } catch {
          finish({ ok: false, reason: 'not_json', message: 'body is not JSON' });
        }
      });
    });
    request.end();
  });
}
