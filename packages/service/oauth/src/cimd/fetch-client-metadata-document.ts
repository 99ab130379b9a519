import type { Egress, EgressFailureReason, EgressPolicy } from '@sess/core/egress';
import { cacheLifetimeSeconds } from './cache-lifetime.ts';

/** Why a document could not be had: the egress's reasons, and what a document must also be. */
export type CimdFetchFailure = EgressFailureReason | 'redirect' | 'bad_status' | 'not_json';

export type CimdFetchResult =
  | { ok: true; document: unknown; maxAgeSeconds: number }
  | { ok: false; reason: CimdFetchFailure; message: string };

export interface FetchClientMetadataOptions {
  /**
   * Where the fetch goes out: `public` in production; `loopback-only` under the test flag
   * (SESS_TEST_LOOPBACK_EGRESS=1), so vendor URLs fail and fall back to their pinned copies.
   */
  egress: Egress;
  /** Deadline for the whole exchange, body included. Default 5 s. */
  timeoutMs?: number;
  /** Largest body accepted. Default 32 KiB (real vendor documents run 4–8 KB). */
  maxBytes?: number;
}

export const CIMD_DEFAULT_TIMEOUT_MS = 5_000;
export const CIMD_MAX_BYTES = 32 * 1024;
const MAX_URL_LENGTH = 2048;

/**
 * The shape rules of a metadata document URL: https (http only under the loopback test policy),
 * a path other than `/`, no fragment, no user-info, no dot segments. The string is used as is,
 * never normalised: the document's `client_id` must equal it exactly.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document#section-3
 */
export function checkMetadataUrl(
  clientId: string,
  policy: EgressPolicy,
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

/**
 * Fetches a Client ID Metadata Document through the egress (docs/egress.md): the URL shape check
 * above, then public unicast addresses only, each one checked at connect time (so DNS rebinding
 * between a check and the connect cannot pass; TLS still verifies the certificate for the name),
 * redirects refused, only 200 accepted, the body capped (32 KiB) and one deadline for the whole
 * exchange; no cookies, no credentials, no proxy.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-client-id-metadata-document#section-4
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization (SSRF)
 */
export async function fetchClientMetadataDocument(
  clientId: string,
  options: FetchClientMetadataOptions,
): Promise<CimdFetchResult> {
  const { egress } = options;
  const shape = checkMetadataUrl(clientId, egress.policy);
  if (!shape.ok) return { ok: false, reason: 'url_not_allowed', message: `client_id URL ${shape.message}` };
  const maxBytes = options.maxBytes ?? CIMD_MAX_BYTES;
  const fetched = await egress.request({
    url: shape.url,
    headers: { accept: 'application/json', 'user-agent': 'Sess-OAuth (client-id-metadata-document fetcher)' },
    timeoutMs: options.timeoutMs ?? CIMD_DEFAULT_TIMEOUT_MS,
    maxBytes,
  });
  if (!fetched.ok) return fetched;
  const { status } = fetched;
  if (status >= 300 && status < 400)
    return { ok: false, reason: 'redirect', message: `answered ${status}; redirects are refused` };
  if (status !== 200) return { ok: false, reason: 'bad_status', message: `answered ${status}` };
  try {
    const document: unknown = JSON.parse(fetched.body.toString('utf8'));
    return { ok: true, document, maxAgeSeconds: cacheLifetimeSeconds(fetched.headers['cache-control']) };
  } catch {
    return { ok: false, reason: 'not_json', message: 'body is not JSON' };
  }
}
