import type { IncomingMessage } from 'node:http';
import { type AuthInfo, createMcpHandler, isJsonContentType } from '@modelcontextprotocol/server';
import { MAX_WAIT_MS } from '@sess/contract';
import {
  type BodyRead,
  bearerChallenge,
  createRateLimiter,
  hasBearerCredential,
  type Logger,
  type RateLimiter,
  readNodeBody,
  readWebBody,
  SessError,
} from '@sess/core';
import type {
  HandleBinding,
  HandleStoreFactory,
  ReceiptVerification,
  RequestScope,
  SessBackend,
  SessPrincipal,
} from '@sess/interactions';
import { createServerFactory, SERVER_INFO, toolError } from '../tools/build-server.ts';
import { Deadline } from './deadline.ts';
import { corsHeaders, createHostAllowlist, createOriginAllowlist, isHostAllowed, isOriginAllowed } from './preflight.ts';
import { ALWAYS_HEADERS, jsonResponse, jsonRpcError, requestIdOf, sseMessage } from './responses.ts';
import { createToolsListCache, plainToolsListEra } from './tools-list-cache.ts';
import { argumentsPointer, findUnsafeKey } from './unsafe-keys.ts';

/** What `authenticate` sees: method, URL and headers — never the body. */
export interface AuthenticateRequest {
  method: string;
  url: string;
  headers: Headers;
}

/** A fixed-window limit: `limit` requests per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface SessMcpHttpHandlerOptions {
  /**
   * Verifies the request's credentials (called exactly once per request, before any body byte is
   * read) and returns the principal, or nothing when there is no valid credential.
   */
  authenticate: (request: AuthenticateRequest) => Promise<SessPrincipal | null | undefined> | SessPrincipal | null | undefined;
  /** Returns a handle store bound to the request's authority. */
  handleStore: HandleStoreFactory;
  /** Host header allowlist (DNS-rebinding defence): `host[:port]`; an entry without a port matches any port. */
  allowedHosts: readonly string[];
  /** Exact browser origins allowed (`https://claude.ai`); a request without Origin is always accepted. */
  allowedOrigins?: readonly string[];
  /** Every scope a principal must hold (403 insufficient_scope otherwise). */
  requiredScopes?: readonly string[];
  /** The protected resource metadata URL named in every challenge (RFC 9728). */
  resourceMetadataUrl: string;
  /** Largest request body, default 256 KiB. */
  maxBodyBytes?: number;
  /** Absolute per-request deadline from entry, default 60 s. */
  requestTimeoutMs?: number;
  /** The runtime; without it, tools/list works and every tool answers NOT_CONFIGURED. */
  backend?: SessBackend;
  /** How answer receipts are verified (required with a backend). */
  receipts?: ReceiptVerification;
  /** Lower the 45 000 ms wait ceiling. */
  maxWaitMs?: number;
  /** Answer plain tools/list requests from the SDK's own cached answer (default true). */
  cacheToolsList?: boolean;
  /** Per-principal and per-IP limits; `false` turns one off. */
  rateLimit?: { perPrincipal?: RateLimit | false; perIp?: RateLimit | false };
  logger?: Logger;
  now?: () => Date;
}

/** The edge. */
export interface SessMcpHttpHandler {
  /**
   * The web-standard face (Hono's `c.req.raw`, Workers, Deno). On @hono/node-server, pass the
   * underlying `incoming` message too: the body is then read straight from it, without a web
   * stream in between, and the socket tells when the client goes away.
   */
  fetch(request: Request, info?: { clientAddress?: string; incoming?: IncomingMessage }): Promise<Response>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_PER_IP: RateLimit = { limit: 3000, windowMs: 60_000 };
const DEFAULT_PER_PRINCIPAL: RateLimit = { limit: 600, windowMs: 60_000 };
const MODERN_VERSIONS = new Set(['2026-07-28']);
const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** One request as the pipeline sees it. */
interface Incoming {
  method: string;
  url: string;
  headers: Headers;
  /** The Host the request was sent to (on the web face, the URL's host when no header is present). */
  host: string | null;
  clientAddress: string;
  /** Calls `listener` if the client goes away; returns the unsubscribe. */
  onClientGone(listener: () => void): () => void;
  readBody(maxBytes: number, deadline: Deadline): Promise<BodyRead>;
  /** The request the SDK sees; the body has been read by then and is passed parsed. */
  sdkRequest(): Request;
}

/** What the steps learn about a request as they pass it on. */
interface EdgeRequest {
  incoming: Incoming;
  deadline: Deadline;
  /** Set by the authentication step. */
  principal?: SessPrincipal;
  /** Set by the body step: the parsed JSON-RPC message. */
  body?: unknown;
}

/** One check of the pipeline: a response ends the request there; nothing lets it through. */
type Step = (request: EdgeRequest) => Response | undefined | Promise<Response | undefined>;

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

function hostOfUrl(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * The origin a request was addressed to, normalised as a browser would (lower case, no default
 * port): two accepted Host names (`127.0.0.1` and `localhost` outside production) are two origins.
 */
function servedOrigin(protocol: string, host: string): string {
  return new URL(`${protocol}//${host}`).origin;
}

function isModernRequest(headers: Headers, body: unknown): boolean {
  const header = headers.get('mcp-protocol-version');
  if (header && MODERN_VERSIONS.has(header)) return true;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const params = (body as { params?: unknown }).params;
    const meta = params && typeof params === 'object' ? (params as { _meta?: unknown })._meta : undefined;
    if (meta && typeof meta === 'object' && Object.hasOwn(meta, PROTOCOL_VERSION_META)) return true;
  }
  return false;
}

/**
 * `createSessMcpHttpHandler(options)`: the hosted MCP endpoint. In this order, on both faces: a
 * header-only preflight before any body byte (Host allowlist, exact Origin allowlist, CORS
 * preflight, per-IP limit, exactly one `authenticate` and the scope check, per-principal limit,
 * method), then a bounded body (413 / 415 / 408), the raw-body unsafe-key guard answered in the
 * request's era, then `createMcpHandler` (2026-07-28 plus the stateless 2025 fallback) with the
 * body passed parsed. One absolute deadline runs from entry: 408 while the body is arriving, 503
 * while `authenticate` is pending, `needs_resume` for a parked wait; a create, publish or
 * complete already sent is never abandoned. Every response carries `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`.
 */
export function createSessMcpHttpHandler(options: SessMcpHttpHandlerOptions): SessMcpHttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const requiredScopes = options.requiredScopes ?? [];
  const hosts = createHostAllowlist(options.allowedHosts);
  const origins = createOriginAllowlist(options.allowedOrigins);
  const logger = options.logger;
  // Handles are bound to the origin a request was addressed to: the endpoint's scheme (behind a
  // TLS proxy the socket is plain http, so it comes from the public resource URL) and its Host.
  const endpointProtocol = new URL(options.resourceMetadataUrl).protocol;
  const ipLimit = options.rateLimit?.perIp === false ? undefined : (options.rateLimit?.perIp ?? DEFAULT_PER_IP);
  const principalLimit =
    options.rateLimit?.perPrincipal === false ? undefined : (options.rateLimit?.perPrincipal ?? DEFAULT_PER_PRINCIPAL);
  const ipLimiter: RateLimiter | undefined = ipLimit ? createRateLimiter(ipLimit) : undefined;
  const principalLimiter: RateLimiter | undefined = principalLimit ? createRateLimiter(principalLimit) : undefined;

  // The scope of each request the edge let through, found again by the SDK's server factory
  // from the request it is building a server for: passed explicitly, never through authInfo.
  const scopes = new WeakMap<Request, RequestScope>();
  const buildServer = createServerFactory(
    {
      ...(options.backend ? { backend: options.backend } : {}),
      ...(options.receipts ? { receipts: options.receipts } : {}),
      ...(logger ? { logger } : {}),
      now: options.now ?? (() => new Date()),
      maxWaitMs: Math.min(options.maxWaitMs ?? MAX_WAIT_MS, MAX_WAIT_MS),
    },
    (ctx) => (ctx.requestInfo ? scopes.get(ctx.requestInfo) : undefined),
  );
  const mcp = createMcpHandler(buildServer, {
    legacy: 'stateless',
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => logger?.debug({ event: 'mcp.sdk.rejected', err: error.message }, 'sdk rejected a request'),
  });

  const toolsList =
    options.cacheToolsList === false
      ? undefined
      : createToolsListCache(mcp, { token: '[not forwarded]', clientId: 'sess-cache', scopes: [...requiredScopes] });

  const challenge = (error?: 'invalid_token' | 'insufficient_scope', description?: string) =>
    bearerChallenge({
      resourceMetadataUrl: options.resourceMetadataUrl,
      scopes: requiredScopes,
      ...(error ? { error } : {}),
      ...(description ? { description } : {}),
    });

  function reject(status: number, reason: string, response: Response): Response {
    logger?.debug({ event: 'mcp.http.rejected', status, reason }, 'request rejected');
    return response;
  }

  const rateLimited = (reason: string, retryAfterSeconds: number) =>
    reject(
      429,
      reason,
      jsonRpcError(429, -32000, 'Rate limit exceeded. Try again later.', {
        headers: { 'Retry-After': String(retryAfterSeconds) },
      }),
    );

  async function authenticateOnce(incoming: Incoming, deadline: Deadline): Promise<SessPrincipal | null | 'timeout' | 'failed'> {
    let stop: (() => void) | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      stop = deadline.onExpire(() => resolve('timeout'));
    });
    try {
      const attempt = Promise.resolve()
        .then(() => options.authenticate({ method: incoming.method, url: incoming.url, headers: incoming.headers }))
        .then(
          (principal) => principal ?? null,
          (error: unknown) => {
            logger?.error({ event: 'mcp.http.authenticate_failed', err: error }, 'authenticate threw');
            return 'failed' as const;
          },
        );
      return await Promise.race([attempt, timedOut]);
    } finally {
      stop?.();
    }
  }

  function unsafeKeyResponse(headers: Headers, body: unknown, path: Array<string | number>): Response {
    const id = requestIdOf(body);
    const modern = isModernRequest(headers, body);
    const method = body && typeof body === 'object' ? (body as { method?: unknown }).method : undefined;
    const argPointer = method === 'tools/call' && id !== null ? argumentsPointer(path) : undefined;
    if (argPointer !== undefined) {
      const error = new SessError(
        'INVALID_ARGUMENTS',
        `${argPointer} is not allowed: the keys __proto__, constructor and prototype are never accepted. Remove it.`,
        { field: argPointer },
      );
      const result = toolError(error);
      if (modern) {
        const message = {
          jsonrpc: '2.0',
          id,
          result: { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
        };
        return jsonResponse(200, message);
      }
      const message = { jsonrpc: '2.0', id, result };
      return (headers.get('accept') ?? '').includes('text/event-stream') ? sseMessage(message) : jsonResponse(200, message);
    }
    const pointer = `/${path.map(String).join('/')}`;
    const text = `Invalid params: ${pointer} uses a key that is never accepted (__proto__, constructor, prototype).`;
    if (modern) return jsonRpcError(400, -32602, text, { id, data: { field: pointer } });
    const message = { jsonrpc: '2.0', id, error: { code: -32602, message: text, data: { field: pointer } } };
    if (id !== null && (headers.get('accept') ?? '').includes('text/event-stream')) return sseMessage(message);
    return jsonResponse(id === null ? 400 : 200, message);
  }

  /*
   * The pipeline, in the seed's order: a header-only preflight before any body byte is read
   * (Host, Origin, CORS preflight, the per-address limit, exactly one authenticate, scopes, the
   * per-principal limit, method, declared length, content type), then the bounded body, the
   * unsafe-key guard answered in the request's era, and plain tools/list from the cache.
   * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http (Security)
   */

  /** DNS-rebinding defence: only the Hosts this endpoint serves. */
  const checkHost: Step = ({ incoming }) =>
    isHostAllowed(incoming.host, hosts)
      ? undefined
      : reject(403, 'host', jsonRpcError(403, -32000, 'Forbidden: this Host is not served here.'));

  /** A browser Origin must be listed; a request without one is a non-browser client. */
  const checkOrigin: Step = ({ incoming }) =>
    isOriginAllowed(incoming.headers.get('origin'), origins)
      ? undefined
      : reject(403, 'origin', jsonRpcError(403, -32600, 'Forbidden: this Origin is not allowed.'));

  /** A CORS preflight of an allowed origin. */
  const answerCorsPreflight: Step = ({ incoming }) =>
    incoming.method === 'OPTIONS'
      ? new Response(null, { status: 204, headers: corsHeaders(incoming.headers.get('origin'), true) })
      : undefined;

  const limitByAddress: Step = ({ incoming }) => {
    const hit = ipLimiter?.hit(incoming.clientAddress);
    return hit && !hit.ok ? rateLimited('ip_rate', hit.retryAfterSeconds) : undefined;
  };

  /** Exactly one authenticate; a store that cannot answer is 503, never a 401 that sends the person to sign in. */
  const authenticatePrincipal: Step = async (request) => {
    const principal = await authenticateOnce(request.incoming, request.deadline);
    if (principal === 'timeout' || principal === 'failed') {
      const text =
        principal === 'timeout'
          ? 'Sign-in could not be checked in time. Try again.'
          : 'Sign-in could not be checked just now. Try again.';
      return reject(503, `authenticate_${principal}`, jsonRpcError(503, -32000, text, { headers: { 'Retry-After': '5' } }));
    }
    if (principal === null) {
      const presented = hasBearerCredential(request.incoming.headers.get('authorization'));
      const header = presented ? challenge('invalid_token', 'The access token is invalid, expired or revoked.') : challenge();
      const body = presented
        ? { error: 'invalid_token', error_description: 'The access token is invalid, expired or revoked. Sign in again.' }
        : { error: 'unauthorized', error_description: 'Sign in to Sess: this endpoint needs an OAuth access token.' };
      return reject(401, presented ? 'invalid_token' : 'no_token', jsonResponse(401, body, { 'WWW-Authenticate': header }));
    }
    request.principal = principal;
    return undefined;
  };

  const checkScopes: Step = ({ principal }) => {
    if (requiredScopes.every((scope) => principal!.scopes.includes(scope))) return undefined;
    return reject(
      403,
      'insufficient_scope',
      jsonResponse(
        403,
        { error: 'insufficient_scope', error_description: `This needs the scope ${requiredScopes.join(' ')}.` },
        { 'WWW-Authenticate': challenge('insufficient_scope', `Requires ${requiredScopes.join(' ')}.`) },
      ),
    );
  };

  const limitByPrincipal: Step = ({ principal }) => {
    const hit = principalLimiter?.hit(`${principal!.workspaceId}:${principal!.principalId}`);
    return hit && !hit.ok ? rateLimited('principal_rate', hit.retryAfterSeconds) : undefined;
  };

  /** POST only: health lives at /healthz, and this stateless endpoint opens no GET stream. */
  const checkMethod: Step = ({ incoming }) =>
    incoming.method === 'POST'
      ? undefined
      : reject(405, 'method', jsonRpcError(405, -32000, 'Method not allowed.', { headers: { Allow: 'POST' } }));

  const checkDeclaredLength: Step = ({ incoming }) => {
    const declared = incoming.headers.get('content-length');
    return declared !== null && Number(declared) > maxBodyBytes ? reject(413, 'declared_too_large', tooLarge()) : undefined;
  };

  const checkContentType: Step = ({ incoming }) =>
    isJsonContentType(incoming.headers.get('content-type'))
      ? undefined
      : reject(415, 'content_type', jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json'));

  /** The body, bounded in size and in time (the request's one deadline), parsed as JSON. */
  const readBoundedBody: Step = async (request) => {
    const read = await request.incoming.readBody(maxBodyBytes, request.deadline);
    switch (read.kind) {
      case 'too_large':
        return reject(413, 'too_large', tooLarge());
      case 'timeout':
        return reject(408, 'body_timeout', jsonRpcError(408, -32000, 'Request Timeout: the body did not arrive in time.'));
      case 'aborted':
        return reject(400, 'body_aborted', jsonRpcError(400, -32700, 'Parse error: the request body could not be read'));
      case 'ok':
        break;
    }
    try {
      request.body = read.text.length === 0 ? undefined : JSON.parse(read.text);
    } catch {
      request.body = undefined;
    }
    return request.body === undefined ? reject(400, 'parse', jsonRpcError(400, -32700, 'Parse error: Invalid JSON')) : undefined;
  };

  /** `__proto__`, `constructor` and `prototype` anywhere, refused in the request's protocol era. */
  const refuseUnsafeKeys: Step = ({ incoming, body }) => {
    const unsafe = findUnsafeKey(body);
    return unsafe ? reject(400, 'unsafe_key', unsafeKeyResponse(incoming.headers, body, unsafe)) : undefined;
  };

  /** A plain tools/list is the same for everyone: the SDK's own answer, made once. */
  const answerToolsListFromCache: Step = async ({ incoming, body }) => {
    const plain = toolsList ? plainToolsListEra(incoming.headers, body) : undefined;
    return plain ? await toolsList!.respond(plain.era, plain.id) : undefined;
  };

  const steps: readonly Step[] = [
    checkHost,
    checkOrigin,
    answerCorsPreflight,
    limitByAddress,
    authenticatePrincipal,
    checkScopes,
    limitByPrincipal,
    checkMethod,
    checkDeclaredLength,
    checkContentType,
    readBoundedBody,
    refuseUnsafeKeys,
    answerToolsListFromCache,
  ];

  /** Past every step: the request's scope, bound store and deadline, and the SDK's answer. */
  async function dispatch({ incoming, deadline, principal, body }: EdgeRequest): Promise<Response> {
    const who = principal!;
    const binding: HandleBinding = {
      origin: servedOrigin(endpointProtocol, incoming.host!),
      workspaceId: who.workspaceId,
      principalId: who.principalId,
      clientId: who.clientId,
      grantId: who.grantId,
      grantGeneration: who.grantGeneration,
    };
    const scope: RequestScope = {
      principal: who,
      binding,
      store: options.handleStore(binding, { workspaceId: who.workspaceId, principalId: who.principalId }),
      deadline: deadline.signal,
    };
    // The SDK's AuthInfo is pure pass-through; it never carries the bearer token.
    const authInfo: AuthInfo = { token: '[not forwarded]', clientId: who.clientId, scopes: [...who.scopes] };
    if (who.expiresAt !== undefined) authInfo.expiresAt = who.expiresAt;
    const request = incoming.sdkRequest();
    scopes.set(request, scope);
    return mcp.fetch(request, { authInfo, parsedBody: body });
  }

  async function run(incoming: Incoming, deadline: Deadline): Promise<Response> {
    const request: EdgeRequest = { incoming, deadline };
    for (const step of steps) {
      const answered = await step(request);
      if (answered) return answered;
    }
    return dispatch(request);
  }

  function tooLarge(): Response {
    return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBodyBytes} bytes`);
  }

  function decorate(response: Response, origin: string | null): Response {
    const extra = origins.size > 0 && origin && isOriginAllowed(origin, origins) ? corsHeaders(origin, false) : {};
    try {
      for (const [name, value] of ALWAYS_HEADERS) response.headers.set(name, value);
      for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
      return response;
    } catch {
      // Immutable headers: copy into a fresh response.
      const headers = new Headers(response.headers);
      for (const [name, value] of ALWAYS_HEADERS) headers.set(name, value);
      for (const [name, value] of Object.entries(extra)) headers.set(name, value);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  }

  /**
   * Runs the pipeline under one absolute deadline. The timer is cleared when the response is
   * complete (for a stream, when it ends), when the pipeline fails, or when the client leaves;
   * a client leaving also aborts the deadline signal, releasing a parked wait at once.
   */
  async function serve(incoming: Incoming): Promise<{ response: Response; done: () => void }> {
    const deadline = new Deadline(timeoutMs);
    let finished = false;
    // A client leaving ends the deadline at once, which releases a parked wait.
    const stopWatching = incoming.onClientGone(() => {
      deadline.expire();
      done();
    });
    const done = () => {
      if (finished) return;
      finished = true;
      deadline.clear();
      stopWatching();
    };
    let answered: Response;
    try {
      answered = await run(incoming, deadline);
    } catch (error) {
      done();
      logger?.error({ event: 'mcp.http.failed', err: error }, 'mcp request failed');
      answered = jsonRpcError(500, -32603, 'Internal server error');
    }
    const response = decorate(answered, incoming.headers.get('origin'));
    // Content type first: on @hono/node-server, touching `.body` turns its lightweight Response
    // into a full one, and a JSON answer would lose the direct write to the socket.
    const streaming = isEventStream(response) && response.body !== null;
    if (!streaming) done();
    return { response, done };
  }

  return {
    async fetch(request, info) {
      const incoming: Incoming = {
        method: request.method.toUpperCase(),
        url: request.url,
        headers: request.headers,
        // Runtimes build the URL from the Host header; an in-process Request may carry only the URL.
        host: request.headers.get('host') ?? hostOfUrl(request.url),
        clientAddress: info?.clientAddress ?? 'unknown',
        onClientGone: (listener) => {
          // On @hono/node-server the socket tells; touching `request.signal` would build a
          // controller for every request that reaches nothing needing it.
          const socket = info?.incoming?.socket;
          if (socket) {
            socket.once('close', listener);
            return () => socket.off('close', listener);
          }
          const signal = request.signal;
          signal.addEventListener('abort', listener, { once: true });
          return () => signal.removeEventListener('abort', listener);
        },
        readBody: (max, deadline) =>
          info?.incoming ? readNodeBody(info.incoming, max, deadline) : readWebBody(request.body, max, deadline),
        sdkRequest: () => request,
      };
      const { response, done } = await serve(incoming);
      if (!isEventStream(response) || !response.body) return response;
      // Keep the deadline armed until the stream ends, then clear it.
      const reader = response.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await reader.read();
            if (next.done) {
              done();
              controller.close();
            } else controller.enqueue(next.value);
          } catch (error) {
            done();
            controller.error(error);
          }
        },
        cancel(reason) {
          done();
          return reader.cancel(reason);
        },
      });
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    },

    async close() {
      await mcp.close();
    },
  };
}
