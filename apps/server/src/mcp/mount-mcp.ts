import type { IncomingMessage } from 'node:http';
import type { ApiKeyAuthenticator } from '@sess/accounts';
import { createChatViews } from '@sess/answer-pages';
import type { Logger } from '@sess/core';
import type { Database } from '@sess/db';
import type { FormsRuntime } from '@sess/forms';
import {
  createInProcessBackend,
  createPostgresHandleStore,
  createPostgresTaskStore,
  createRuntimeKeySet,
  type FormNotices,
} from '@sess/hosted';
import { createSessMcpHttpHandler, type SessMcpHttpHandlerOptions } from '@sess/mcp';
import { buildOAuthUrls, createAccessTokenVerifier, SCOPE_INTERACT } from '@sess/oauth';
import type { Hono } from 'hono';
import type { Config } from '../config.ts';
import { type Admission, busyAnswer, nodeIncoming, whileClientStays } from '../http/admission.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { ClientAddress } from '../http/client-address.ts';
import type { FrontRoute } from '../http/front-fetch.ts';
import type { LinkOrigins } from '../http/link-host.ts';
import { createApiKeyOrOAuthAuthenticate } from './api-key-or-oauth-authenticate.ts';

export interface McpMountDeps {
  config: Config;
  database: Database;
  runtime: FormsRuntime;
  secret: string;
  logger: Logger;
  now: () => Date;
  /** The client address the per-IP limit keys on (see `createClientAddress`). */
  clientAddress: ClientAddress;
  /** Which Host is SESS_LINK_URL's: /mcp is refused there by the app's middleware. */
  linkOrigins: LinkOrigins;
  /** Workspace API keys, accepted as the bearer beside OAuth access tokens (the app's one authenticator). */
  apiKeys: ApiKeyAuthenticator;
  /** Registers the verifier's close (its bus subscription and caches) with the server's shutdown. */
  onClose?: ((close: () => Promise<void>) => void) | undefined;
  /** The person's notifications of the tools' creates and follow-ups; absent when SESS_NOTIFICATIONS=off. */
  notices?: FormNotices | undefined;
  /** The bounds on requests in flight: a tool call counts under `mcp`, one that parks under `waits`. */
  admission: Admission;
  /** Told of every tool call when it ends (the metrics). */
  onToolCall?: SessMcpHttpHandlerOptions['onToolCall'];
}

/**
 * Hosts `/mcp` answers for: the public URL's host, plus loopback names outside production — but
 * never SESS_LINK_URL's host, which serves answer pages only.
 */
export function allowedHostsFor(config: Pick<Config, 'nodeEnv' | 'publicUrl' | 'linkUrl'>): string[] {
  const publicHost = new URL(config.publicUrl).host;
  const link = new URL(config.linkUrl);
  const hosts = [publicHost];
  if (config.nodeEnv === 'production') return hosts;
  for (const loopback of ['localhost', '127.0.0.1', '[::1]']) {
    if (link.host === publicHost || link.hostname !== loopback) hosts.push(loopback);
  }
  return hosts;
}

/**
 * Mounts the MCP endpoint at `/mcp`: @sess/mcp's edge (the one `@sess.si/mcp/http` publishes)
 * with OAuth access tokens and workspace API keys as its `authenticate`, the PostgreSQL handle
 * store (sealed with the server secret), and the forms runtime in-process as the backend
 * (receipts verified against the runtime's own key ring), writing each create with its handle
 * record (@sess/hosted). Returns the route the listener serves ahead of the app (`frontFetch`);
 * HEAD and the link host's /mcp stay the app's.
 */
export function mountMcp(app: Hono<AppEnv>, deps: McpMountDeps): FrontRoute {
  const urls = buildOAuthUrls(deps.config.publicUrl);
  const verifier = createAccessTokenVerifier({
    database: deps.database,
    publicUrl: deps.config.publicUrl,
    now: deps.now,
    logger: deps.logger,
  });
  deps.onClose?.(async () => verifier.close());
  const store = createPostgresHandleStore({
    db: deps.database.db,
    secret: deps.secret,
    now: deps.now,
    logger: deps.logger,
  });
  const handler = createSessMcpHttpHandler({
    authenticate: createApiKeyOrOAuthAuthenticate({ verifier, apiKeys: deps.apiKeys, logger: deps.logger }),
    handleStore: store.bind,
    allowedHosts: allowedHostsFor(deps.config),
    wrongHostAdvice: `${new URL(deps.config.publicUrl).host} is PUBLIC_URL's host: set PUBLIC_URL to the address your client uses.`,
    allowedOrigins: deps.config.mcp.allowedOrigins,
    requiredScopes: [SCOPE_INTERACT],
    resourceMetadataUrl: urls.protectedResourceMetadata,
    backend: createInProcessBackend(deps.runtime, { handles: store, notices: deps.notices }),
    receipts: { keys: createRuntimeKeySet(deps.runtime), issuer: deps.runtime.publicUrl },
    logger: deps.logger,
    now: deps.now,
    // The form inside the chat for hosts that render MCP Apps: the answer page's own view and admission.
    chat: { views: createChatViews({ runtime: deps.runtime, secret: deps.secret }), secret: deps.secret },
    // The MCP Tasks extension, for clients that declare it: tasks in the database, so any replica answers tasks/get.
    tasks: createPostgresTaskStore({ db: deps.database.db }),
    ...(deps.onToolCall ? { onToolCall: deps.onToolCall } : {}),
    rateLimit: {
      perIp: deps.config.mcp.ratePerIp > 0 ? { limit: deps.config.mcp.ratePerIp, windowMs: 60_000 } : false,
      perPrincipal: deps.config.mcp.ratePerPrincipal > 0 ? { limit: deps.config.mcp.ratePerPrincipal, windowMs: 60_000 } : false,
    },
  });
  /** On @hono/node-server the socket's message is at hand: the edge reads the body from it directly. */
  const serve = (request: Request, env: unknown) => {
    const clientAddress = deps.clientAddress({ env });
    const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
    return handler.fetch(request, incoming ? { clientAddress, incoming } : { clientAddress });
  };
  /**
   * Past the connection cap, 503 at once; else, once it is clear the client is still there, the
   * edge, which takes the request's place among calls or waits when it has read which it is.
   */
  const serveAdmitted = (request: Request, env: unknown): Promise<Response> => {
    const incoming = nodeIncoming(env);
    if (deps.admission.isPastCap(incoming)) return Promise.resolve(busyAnswer('mcp', '/mcp', undefined));
    const admission = deps.admission.ticket();
    const clientAddress = deps.clientAddress({ env });
    return whileClientStays(incoming, () =>
      handler.fetch(request, incoming ? { clientAddress, incoming, admission } : { clientAddress, admission }),
    );
  };
  // Through the app's chain: HEAD, and the link host (refused there, before this route).
  app.all('/mcp', (c) => serve(c.req.raw, c.env));
  // Everything else ahead of the chain: a parked wait must not hold its frames for 45 s.
  return {
    path: '/mcp',
    takes: (request) => request.method !== 'HEAD' && !deps.linkOrigins.isLinkHost(request.headers.get('host') ?? undefined),
    fetch: serveAdmitted,
  };
}
