import { errorPage } from '@sess/error-pages';
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { mountAuthorizeRoutes } from './authorize-routes.ts';
import { mountConnectedAppsRoutes } from './connected-apps-routes.ts';
import type { OAuthEnv, OAuthRoutesDeps } from './deps.ts';
import { mountMetadataRoutes } from './metadata-routes.ts';
import { createOAuthServer } from './oauth-server.ts';
import { mountRegistrationRoute } from './registration-route.ts';
import { internalErrorJson } from './respond.ts';
import { mountRevocationRoute } from './revocation-route.ts';
import { mountTokenRoute } from './token-route.ts';

// Endpoints under /oauth/*, plus the 2025-03-26 defaults at the origin for clients that skip
// discovery (they assume /authorize, /token and /register on the MCP server's origin).
const AUTHORIZE_PATHS = ['/oauth/authorize', '/authorize'];
const TOKEN_PATHS = ['/oauth/token', '/token'];
const REGISTER_PATHS = ['/oauth/register', '/register'];
const REVOKE_PATH = '/oauth/revoke';
const METADATA_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/.well-known/openid-configuration',
  '/oauth/jwks.json',
];
/** Whether `path` is the token, registration or revocation endpoint: its errors are OAuth JSON (RFC 6749 §5.2). */
export function answersOAuthErrors(path: string): boolean {
  return TOKEN_PATHS.includes(path) || REGISTER_PATHS.includes(path) || path === REVOKE_PATH;
}

const OWN_PATHS = [
  ...METADATA_PATHS,
  ...AUTHORIZE_PATHS,
  ...TOKEN_PATHS,
  ...REGISTER_PATHS,
  REVOKE_PATH,
  '/account/apps',
  '/account/apps/disconnect',
];

/**
 * The authorization server as one Hono app to mount at `/`: discovery metadata, DCR,
 * authorize + consent, token, revocation, the access-token JWKS, and the connected-apps page.
 * Middleware runs only on these paths (the app shares `/` with other packages). Browser clients
 * get CORS on the metadata, token, registration and revocation endpoints (never on the
 * authorization endpoint, which is a page).
 */
export function createOAuthRoutes(deps: OAuthRoutesDeps): Hono<OAuthEnv> {
  const app = new Hono<OAuthEnv>();
  const server = createOAuthServer(deps);
  const ensureLogger: MiddlewareHandler<OAuthEnv> = async function ensureLogger(c, next) {
    if (!c.get('logger')) c.set('logger', deps.logger);
    await next();
  };
  for (const path of OWN_PATHS) app.use(path, ensureLogger);
  const allowBrowsers = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'MCP-Protocol-Version'],
    maxAge: 86_400,
  });
  for (const path of [...METADATA_PATHS, ...TOKEN_PATHS, ...REGISTER_PATHS, REVOKE_PATH]) app.use(path, allowBrowsers);
  // The endpoints fail as RFC 6749 JSON; the pages (authorization, consent, connected apps) by
  // the one HTML error mapper.
  const pages = new Set([...AUTHORIZE_PATHS, '/account/apps', '/account/apps/disconnect']);
  app.onError((error, c) => {
    const logger = c.get('logger') ?? deps.logger;
    if (pages.has(c.req.path)) {
      const backTo = c.req.path.startsWith('/account/') ? '/account/apps' : undefined;
      return errorPage(error, { ...(backTo ? { backTo } : {}), logger, event: 'oauth.http', request: c.req.raw });
    }
    logger.error({ event: 'oauth.http.unhandled', err: error }, 'unhandled error');
    return internalErrorJson(error);
  });

  mountMetadataRoutes(app, server);
  mountRegistrationRoute(app, server, REGISTER_PATHS);
  mountAuthorizeRoutes(app, server, AUTHORIZE_PATHS);
  mountTokenRoute(app, server, TOKEN_PATHS);
  mountRevocationRoute(app, server, REVOKE_PATH);
  mountConnectedAppsRoutes(app, server);
  return app;
}
