import { type Logger, readBearerToken } from '@sess/core';
import type { SessPrincipal } from '@sess/interactions';
import type { AuthenticateRequest } from '@sess/mcp';
import type { AccessTokenVerifier } from '@sess/oauth';

/**
 * The edge's `authenticate`, built on the authorization server's access-token verifier: the
 * bearer token from the Authorization header (never the query), verified for signature,
 * issuer, audience (PUBLIC_URL/mcp), expiry and the grant's liveness and generation. Nothing →
 * the edge answers 401; a verifier that cannot reach its data throws, and the edge answers 503
 * (a 401 would send the client through sign-in again for no reason).
 */
export function createOAuthAuthenticate(
  verifier: AccessTokenVerifier,
  logger?: Logger,
): (request: AuthenticateRequest) => Promise<SessPrincipal | null> {
  return async function authenticate({ headers }) {
    const bearer = readBearerToken(headers.get('authorization'));
    if (bearer.kind !== 'token') return null;
    const result = await verifier.verify(bearer.token);
    if (result.ok) return result.principal;
    if (result.reason === 'unavailable') throw new Error('access-token verification is unavailable');
    logger?.debug({ event: 'mcp.token.refused', reason: result.reason }, 'access token refused');
    return null;
  };
}
