import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/**
 * The address a request came from, as the per-IP limits (sign-in, sign-up, registration, /mcp) key
 * on it. It reads only the request's env (a Hono Context is one), so /mcp, served ahead of Hono's
 * chain, asks it too.
 */
export type ClientAddress = (c: { env: unknown }) => string;

/**
 * Checks a `SESS_TRUSTED_PROXIES` list (addresses, CIDR ranges, or `loopback`, `linklocal`,
 * `uniquelocal`); returns the problem, or undefined when every entry is usable.
 */
export function trustedProxiesProblem(entries: string[]): string | undefined {
  try {
    proxyAddr.compile(entries);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The client address of a request. With no trusted proxies it is the socket's peer and
 * `X-Forwarded-For` is ignored (anyone can send it). Behind trusted proxies it is the nearest
 * address in `X-Forwarded-For` that is not itself a trusted proxy, so a client cannot choose
 * its own address by prepending entries, and a load balancer does not make every client one.
 */
export function createClientAddress(trustedProxies: string[]): ClientAddress {
  const trust = trustedProxies.length > 0 ? proxyAddr.compile(trustedProxies) : undefined;
  return (c) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    // Not on @hono/node-server (app.request in a test), or the socket is gone: no address.
    const peer = incoming?.socket?.remoteAddress;
    if (!incoming || !peer) return 'unknown';
    return trust ? proxyAddr(incoming, trust) : peer;
  };
}
