import { isIP } from 'node:net';
import { classifyAddress, isLoopbackAddress } from './refused-ranges.ts';

/**
 * Whose choice a destination is, which decides what Sess may connect to:
 * - `public`: a URL a person or a stranger chose (a push endpoint, a client metadata document).
 *   https only, public unicast addresses only, names resolved by Sess itself.
 * - `loopback-only`: the same URLs under the test flag SESS_TEST_LOOPBACK_EGRESS=1: http or
 *   https to loopback only, and no name resolved but `localhost`, so a test never sends a
 *   packet off the machine (tests of names run `public` with a DNS server of their own).
 * - `configured`: a destination the operator named (PUBLIC_URL, a `--jwks` URL typed on the
 *   command line): any address and the system's resolver, with the other rules of egress (no
 *   redirects, bounded time and body).
 */
export type EgressPolicy = 'public' | 'loopback-only' | 'configured';

export type UrlVerdict = { ok: true } | { ok: false; reason: 'url_not_allowed' | 'address_not_allowed'; message: string };

/** `localhost` and `*.localhost` always name this host (RFC 6761 §6.3). */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The URL's host without IPv6 brackets, as a connection names it. */
export function connectHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Whether an address may be connected to under `policy` (`configured` takes any), and why not. */
export function checkAddress(address: string, policy: EgressPolicy): { ok: true } | { ok: false; message: string } {
  if (policy === 'configured') return { ok: true };
  if (policy === 'loopback-only')
    return isLoopbackAddress(address) ? { ok: true } : { ok: false, message: `${address} is not loopback (test policy)` };
  const verdict = classifyAddress(address);
  return verdict.allowed ? { ok: true } : { ok: false, message: `${address} is not a public address (${verdict.range})` };
}

/**
 * Everything about a destination that can be refused without asking DNS: the scheme, credentials
 * in the URL, an address written in it, a `localhost` name. Registration runs it (a device's
 * endpoint is refused when it is saved), and every request runs it again first.
 */
export function checkEgressUrl(url: URL, policy: EgressPolicy): UrlVerdict {
  const schemes = policy === 'public' ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol))
    return { ok: false, reason: 'url_not_allowed', message: `${url.protocol} is not allowed; use https://` };
  if (url.username || url.password) return { ok: false, reason: 'url_not_allowed', message: 'the URL carries credentials' };
  const host = connectHost(url);
  if (isIP(host)) {
    const address = checkAddress(host, policy);
    return address.ok ? address : { ok: false, reason: 'address_not_allowed', message: address.message };
  }
  if (policy === 'public' && isLocalhostName(host))
    return { ok: false, reason: 'address_not_allowed', message: `${host} names this host` };
  if (policy === 'loopback-only' && !isLocalhostName(host))
    return {
      ok: false,
      reason: 'address_not_allowed',
      message: `${host} is not loopback (the test policy resolves no other names)`,
    };
  return { ok: true };
}
