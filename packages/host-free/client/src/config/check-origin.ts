import { SessClientError } from '../errors/sess-client-error.ts';

/** Hosts that `allowInsecureLocalhost` lets through over plain http (the seed's list). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function refuse(message: string): SessClientError {
  return new SessClientError({ kind: 'configuration', operation: 'createSessClient', message });
}

/**
 * The API origin as the seed allows it: HTTPS, no path, query, fragment or credentials (a
 * trailing `/` is fine). Plain http only for `localhost`, `127.0.0.1` and `[::1]`, and only when
 * the caller says so: the API key travels in every request.
 * @returns the origin, normalised (`https://api.sess.si`).
 * @throws SessClientError `configuration`.
 */
export function checkOrigin(origin: unknown, options: { allowInsecureLocalhost?: boolean | undefined } = {}): string {
  if (typeof origin !== 'string' || origin === '') throw refuse('origin is required, for example https://api.sess.si.');
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw refuse('origin is not a URL; give the API origin, for example https://api.sess.si.');
  }
  if (url.username !== '' || url.password !== '') throw refuse('origin must not carry credentials; pass apiKey instead.');
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(origin)) {
    throw refuse('origin must be an origin only, without path, query or fragment (https://api.sess.si).');
  }
  if (url.protocol === 'https:') return url.origin;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) {
    if (options.allowInsecureLocalhost === true) return url.origin;
    throw refuse('origin uses plain http; for a local Sess set allowInsecureLocalhost: true.');
  }
  throw refuse('origin must use https (plain http only for localhost, 127.0.0.1 or [::1] with allowInsecureLocalhost).');
}
