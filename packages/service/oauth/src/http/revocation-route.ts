import type { Hono } from 'hono';
import { isOAuthError, OAuthError } from '../errors/oauth-error.ts';
import { revokeToken } from '../tokens/revoke-token.ts';
import { authenticateClient, usesBasicAuth } from './client-authentication.ts';
import type { OAuthEnv } from './deps.ts';
import { readFormBody } from './form-body.ts';
import type { OAuthServer } from './oauth-server.ts';
import { internalErrorJson, NO_STORE, oauthErrorJson } from './respond.ts';

/**
 * Token revocation at `/oauth/revoke`: the client authenticates like at the token endpoint;
 * the answer is 200 with an empty body whether or not the token was known.
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2
 */
export function mountRevocationRoute(app: Hono<OAuthEnv>, server: OAuthServer, path: string): void {
  app.post(path, async (c) => {
    const authorization = c.req.header('authorization');
    try {
      const params = await readFormBody(c, 16 * 1024);
      const client = await authenticateClient(server.tokens.db, params, authorization);
      const token = params.get('token');
      if (!token) throw new OAuthError('invalid_request', 'token is required.');
      // token_type_hint is only a hint (RFC 7009 §2.1); both kinds are recognised by shape.
      await revokeToken(server.tokens, { client, token });
      return new Response(null, { status: 200, headers: NO_STORE });
    } catch (error) {
      if (!isOAuthError(error)) {
        c.get('logger').error({ event: 'oauth.revoke.failed', err: error }, 'revocation failed');
        return internalErrorJson(error);
      }
      return oauthErrorJson(error, { basicAttempted: usesBasicAuth(authorization) });
    }
  });
}
