import { socketAddress } from '@sess/accounts';
import { createRateLimiter } from '@sess/core';
import type { Hono } from 'hono';
import { registerClient } from '../clients/register-client.ts';
import { validateClientMetadata } from '../clients/validate-client-metadata.ts';
import { isOAuthError, OAuthError } from '../errors/oauth-error.ts';
import type { OAuthEnv } from './deps.ts';
import { readJsonBody } from './form-body.ts';
import type { OAuthServer } from './oauth-server.ts';
import { jsonNoStore, oauthErrorJson } from './respond.ts';

const MAX_BODY_BYTES = 16 * 1024;

/**
 * Dynamic Client Registration at `/oauth/register` (and `/register`, the 2025-03-26 default).
 * Open (no initial access token: MCP clients have none), limited per client address.
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3
 */
export function mountRegistrationRoute(app: Hono<OAuthEnv>, server: OAuthServer, paths: string[]): void {
  const { deps } = server;
  const clientIp = deps.clientIp ?? socketAddress;
  const limiter = createRateLimiter({
    limit: deps.limits?.registrationsPerIpPerHour ?? 60,
    windowMs: 3600_000,
    now: () => deps.now().getTime(),
  });
  for (const path of paths) {
    app.post(path, async (c) => {
      const logger = c.get('logger');
      void server.sweep();
      const hit = limiter.hit(clientIp(c));
      if (!hit.ok) {
        logger.warn({ event: 'oauth.register.rate_limited' }, 'client registration rate limited');
        return oauthErrorJson(
          new OAuthError('slow_down', `Too many registrations from this address; try again in ${hit.retryAfterSeconds} s.`),
        );
      }
      try {
        const metadata = validateClientMetadata(await readJsonBody(c, MAX_BODY_BYTES), 'dcr');
        const response = await registerClient(deps.database.db, { metadata, now: deps.now() });
        logger.info(
          {
            event: 'oauth.client.registered',
            clientId: response.client_id,
            authMethod: response.token_endpoint_auth_method,
            applicationType: metadata.applicationType,
            redirectUris: metadata.redirectUris.length,
            droppedRedirectUris: metadata.droppedRedirectUris.length,
          },
          'client registered',
        );
        return jsonNoStore(response, 201);
      } catch (error) {
        if (!isOAuthError(error)) throw error;
        logger.info(
          { event: 'oauth.register.refused', error: error.code, description: error.description },
          'registration refused',
        );
        return oauthErrorJson(error);
      }
    });
  }
}
