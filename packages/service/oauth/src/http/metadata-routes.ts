import type { Hono } from 'hono';
import { buildAuthorizationServerMetadata, buildProtectedResourceMetadata } from '../metadata/build-metadata.ts';
import { loadVerificationKeys } from '../tokens/access-token-keys.ts';
import type { OAuthEnv } from './deps.ts';
import type { OAuthServer } from './oauth-server.ts';

const METADATA_CACHE = 'public, max-age=300';

/**
 * Discovery documents: protected resource metadata (path-inserted for /mcp, and the root form),
 * authorization server metadata (RFC 8414 and the OpenID alias some clients try first), and
 * the JWKS of the access-token keys (for a resource server in another process).
 * @see https://www.rfc-editor.org/rfc/rfc9728#section-3.1
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3
 */
export function mountMetadataRoutes(app: Hono<OAuthEnv>, server: OAuthServer): void {
  const resource = buildProtectedResourceMetadata(server.urls);
  const authorizationServer = buildAuthorizationServerMetadata(server.urls);
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': METADATA_CACHE },
    });
  app.get('/.well-known/oauth-protected-resource/mcp', () => json(resource));
  app.get('/.well-known/oauth-protected-resource', () => json(resource));
  app.get('/.well-known/oauth-authorization-server', () => json(authorizationServer));
  app.get('/.well-known/openid-configuration', () => json(authorizationServer));
  app.get('/oauth/jwks.json', async () => {
    const keys = await loadVerificationKeys(server.tokens.db, server.deps.now());
    return new Response(JSON.stringify({ keys }), {
      headers: { 'Content-Type': 'application/jwk-set+json', 'Cache-Control': 'public, max-age=60' },
    });
  });
}
