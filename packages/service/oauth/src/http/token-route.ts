import type { Hono } from 'hono';
import { isOAuthError, OAuthError } from '../errors/oauth-error.ts';
import { exchangeAuthorizationCode } from '../tokens/exchange-authorization-code.ts';
import { refreshAccessToken } from '../tokens/refresh-access-token.ts';
import type { TokenResponse } from '../tokens/token-response.ts';
import { authenticateClient, usesBasicAuth } from './client-authentication.ts';
import type { OAuthEnv } from './deps.ts';
import { checkNoRepeats, readFormBody } from './form-body.ts';
import type { OAuthServer } from './oauth-server.ts';
import { internalErrorJson, jsonNoStore, oauthErrorJson } from './respond.ts';

const MAX_BODY_BYTES = 16 * 1024;

/**
 * The token endpoint at `/oauth/token` (and `/token`): form-encoded requests, JSON answers,
 * `Cache-Control: no-store` on both, errors per RFC 6749 §5.2 (never HTML).
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-3.2
 */
export function mountTokenRoute(app: Hono<OAuthEnv>, server: OAuthServer, paths: string[]): void {
  const db = server.deps.database.db;
  for (const path of paths) {
    app.post(path, async (c) => {
      const logger = c.get('logger');
      const authorization = c.req.header('authorization');
      let clientId: string | undefined;
      try {
        const params = await readFormBody(c, MAX_BODY_BYTES);
        checkNoRepeats(params);
        const client = await authenticateClient(db, params, authorization);
        clientId = client.id;
        const grantType = params.get('grant_type');
        let response: TokenResponse;
        if (grantType === 'authorization_code') {
          const code = params.get('code');
          if (!code) throw new OAuthError('invalid_request', 'code is required.');
          response = await exchangeAuthorizationCode(server.tokens, {
            client,
            code,
            codeVerifier: params.get('code_verifier'),
            redirectUri: params.get('redirect_uri'),
            resource: params.get('resource'),
          });
        } else if (grantType === 'refresh_token') {
          const refreshToken = params.get('refresh_token');
          if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required.');
          response = await refreshAccessToken(server.tokens, { client, refreshToken, resource: params.get('resource') });
        } else if (grantType === null) {
          throw new OAuthError('invalid_request', 'grant_type is required.');
        } else {
          throw new OAuthError('unsupported_grant_type', 'Only authorization_code and refresh_token are supported.');
        }
        void server.sweep();
        return jsonNoStore(response);
      } catch (error) {
        if (!isOAuthError(error)) {
          logger.error({ event: 'oauth.token.failed', err: error, clientId }, 'token request failed');
          return internalErrorJson(error);
        }
        logger.info(
          { event: 'oauth.token.refused', error: error.code, description: error.description, clientId },
          'token request refused',
        );
        return oauthErrorJson(error, { basicAttempted: usesBasicAuth(authorization) });
      }
    });
  }
}
