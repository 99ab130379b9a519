import type { OAuthClient } from '../clients/client-record.ts';
import { matchRedirectUri } from '../clients/redirect-uri.ts';
import { OAuthError } from '../errors/oauth-error.ts';

declare const verified: unique symbol;

/**
 * A redirect URI that has been matched against the client's registration. It can only be made
 * by `verifyRedirectUri`, and only with one can anything be sent back to a client, so an error
 * found before the redirect URI is trusted can never be redirected (no open redirector).
 */
export interface VerifiedRedirect {
  /** The URI the client asked for (for loopback, with its port). */
  readonly uri: string;
  /** Whether the request named it (if not, the token request may leave it out too). */
  readonly given: boolean;
  readonly [verified]: true;
}

/**
 * Checks `redirect_uri` against the client's registered URIs (exact, or loopback with any
 * port). When it is absent, the one registered URI is used, if there is exactly one and it is
 * usable as is (a port-less loopback registration needs the port from the request).
 * @throws OAuthError `invalid_request` — to be shown on a page, never redirected.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.1.2.1
 */
export function verifyRedirectUri(client: OAuthClient, requested: string | null): VerifiedRedirect {
  if (requested === null) {
    const only = client.redirectUris.length === 1 ? client.redirectUris[0]! : null;
    if (!only || only.startsWith('http://')) {
      throw new OAuthError(
        'invalid_request',
        'The request has no redirect_uri, and this app has more than one (or a local one).',
      );
    }
    return { uri: only, given: false } as VerifiedRedirect;
  }
  if (matchRedirectUri(client.redirectUris, requested) === null) {
    throw new OAuthError('invalid_request', 'The redirect_uri is not one this app registered.', {
      redirectUri: requested.slice(0, 200),
    });
  }
  return { uri: requested, given: true } as VerifiedRedirect;
}

/**
 * The authorization response URL: the verified redirect URI with `params` added to its query
 * (undefined values left out), per RFC 6749 §4.1.2 and RFC 9207 (`iss`).
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2
 */
export function authorizationResponseUrl(redirect: VerifiedRedirect, params: Record<string, string | undefined>): string {
  const url = new URL(redirect.uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}

/** The error response (`error`, `error_description`, `state`, `iss`) for a verified redirect. */
export function errorResponseUrl(
  redirect: VerifiedRedirect,
  error: OAuthError,
  state: string | undefined,
  issuer: string,
): string {
  return authorizationResponseUrl(redirect, { error: error.code, error_description: error.description, state, iss: issuer });
}
