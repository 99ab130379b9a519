import { checkApiOrigin } from '@sess/core';
import { SessClientError } from '../errors/sess-client-error.ts';

function refuse(message: string): SessClientError {
  return new SessClientError({ kind: 'configuration', operation: 'createSessClient', message });
}

/** The sentence each problem of core's API-origin rule gets here. */
const PROBLEMS = {
  not_url: 'origin is not a URL; give the API origin, for example https://api.sess.si.',
  credentials: 'origin must not carry credentials; pass apiKey instead.',
  not_origin: 'origin must be an origin only, without path, query or fragment (https://api.sess.si).',
  insecure: 'origin must use https (plain http only to this computer: localhost, 127.0.0.1 or [::1]).',
} as const;

/**
 * The API origin as core's `checkApiOrigin` allows it: HTTPS, no path, query, fragment or
 * credentials (a trailing `/` is fine), or plain http to a loopback host (a local Sess).
 * @returns the origin, normalised (`https://api.sess.si`).
 * @throws SessClientError `configuration`.
 */
export function checkOrigin(origin: unknown): string {
  if (typeof origin !== 'string' || origin === '') throw refuse('origin is required, for example https://api.sess.si.');
  const checked = checkApiOrigin(origin);
  if (!checked.ok) throw refuse(PROBLEMS[checked.problem]);
  return checked.origin;
}
