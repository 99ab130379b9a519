import type { IncomingMessage } from 'node:http';
import { type AuthInfo, createMcpHandler } from '@modelcontextprotocol/server';
import { listedTools, MAX_WAIT_MS } from '@sess/contract';
import { createRateLimiter, type Logger, type RateLimiter, type Timers } from '@sess/core';
import type {
  HandleBinding,
  HandleStoreFactory,
  ReceiptVerification,
  RequestScope,
  SessBackend,
  TaskStore,
  ToolCallReport,
  ToolDeps,
} from '@sess/interactions';
import { type ChatViewService, createChatViewService } from '../apps/chat-view-service.ts';
import type { ChatViews } from '../apps/chat-views.ts';
import { initializeShowsUi, newUiSessionId, requestShowsUi } from '../apps/ui-extension.ts';
import { createTaskService } from '../tasks/task-service.ts';
import { requestDeclaresTasks } from '../tasks/tasks-extension.ts';
import { createServerFactory, createToolRunner } from '../tools/build-server.ts';
import { Deadline } from './deadline.ts';
import type { Authenticate, EdgeRequest, EdgeSettings, Incoming } from './edge-request.ts';
import { EDGE_STEPS } from './edge-steps.ts';
import { createCallFrames, plainToolCall } from './fast-paths/plain-calls.ts';
import { createToolsListCache } from './fast-paths/tools-list-cache.ts';
import { isEventStream, toIncoming, untilStreamEnds } from './incoming.ts';
import { corsHeaders, createHostAllowlist, createOriginAllowlist, isOriginAllowed } from './preflight.ts';
import { busyResponse, mayPark, type RequestAdmission } from './request-admission.ts';
import { ALWAYS_HEADERS, jsonRpcError, requestIdOf } from './responses.ts';

export type { Authenticate, AuthenticateRequest } from './edge-request.ts';

/** A fixed-window limit: `limit` requests per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export interface SessMcpHttpHandlerOptions {
  /**
   * Verifies the request's credentials (called exactly once per request, before any body byte is
   * read) and returns the principal, or nothing when there is no valid credential (401 with a
   * `WWW-Authenticate: Bearer resource_metadata="…"` challenge).
   */
  authenticate: Authenticate;
  /** Returns a handle store bound to the request's authority; every loaded record is re-checked anyway. */
  handleStore: HandleStoreFactory;
  /** Host header allowlist (DNS-rebinding defence): `host[:port]`; an entry without a port matches any port. */
  allowedHosts: readonly string[];
  /**
   * A sentence added to the 403 a request with another Host gets, after the hosts it names:
   * how to fix it where you host the edge (e.g. "Set PUBLIC_URL to the address your client uses.").
   */
  wrongHostAdvice?: string;
  /** Exact browser origins allowed (`https://claude.ai`); a request without Origin is always accepted. */
  allowedOrigins?: readonly string[];
  /** Every scope a principal must hold (`403 insufficient_scope` otherwise). */
  requiredScopes?: readonly string[];
  /** The protected resource metadata URL named in every challenge (RFC 9728). */
  resourceMetadataUrl: string;
  /** Largest request body, default 256 KiB (`413` above it). */
  maxBodyBytes?: number;
  /** Absolute per-request deadline from entry, default 60 s (`408` while the body is still arriving). */
  requestTimeoutMs?: number;
  /** The deadlines' timers (the real ones by default; a test's own to end a deadline when it chooses). */
  deadlineTimers?: Timers;
  /** The Sess runtime; without it `tools/list` works and every tool answers `NOT_CONFIGURED`. */
  backend?: SessBackend;
  /** How answer receipts are verified (required with a backend). */
  receipts?: ReceiptVerification;
  /** Lower the 45 000 ms wait ceiling. */
  maxWaitMs?: number;
  /** Answer plain tools/list requests from the SDK's own cached answer (default true). */
  cacheToolsList?: boolean;
  /**
   * Answer plain tool calls without the SDK's per-request server, in the SDK's own framing
   * (default true). Off, a `__proto__`, `constructor` or `prototype` key in a tool's arguments is
   * answered as JSON-RPC -32602 naming its pointer, not as an `INVALID_ARGUMENTS` tool error.
   */
  answerPlainCalls?: boolean;
  /** Per-principal and per-IP limits (429 with `Retry-After`); `false` turns one off. */
  rateLimit?: { perPrincipal?: RateLimit | false; perIp?: RateLimit | false };
  /** Where the edge and the tools log: fixed dotted events and codes, object first; never a link, a token or an answer. */
  logger?: Logger;
  now?: () => Date;
  /** Told of every tool call when it ends (tool, outcome, time; never arguments): a host's metrics. */
  onToolCall?: (report: ToolCallReport) => void;
  /**
   * The form inside the chat (MCP Apps) for hosts that render apps: the host's views and the key
   * of the views' tokens. Without it, every client is served as one that renders nothing.
   */
  chat?: { views: ChatViews; secret: string; statusPerMinute?: number };
  /**
   * The MCP Tasks extension (`io.modelcontextprotocol/tasks`): where tasks are kept. With it, a
   * 2026-07-28 request that declares the extension may get a task instead of a sess_response
   * wait, and `tasks/get`, `tasks/update`, `tasks/cancel` are served (-32021 to a request that
   * did not declare it). Without it, or to a client that does not declare it, nothing changes.
   */
  tasks?: TaskStore;
}

/** The edge. */
export interface SessMcpHttpHandler {
  /**
   * The web-standard face (Hono's `c.req.raw`, Workers, Deno). On @hono/node-server, pass the
   * underlying `incoming` message too: the body is then read straight from it, without a web
   * stream in between, and the socket tells when the client goes away. A host that bounds
   * requests in flight passes its `admission` of the request: once read, a call takes a place
   * among the host's calls, or its waits when it may park (503 `SESS_UNAVAILABLE`, `reason:
   * busy`, when that bound is full), and gives it back when its answer is ready.
   */
  fetch(
    request: Request,
    info?: { clientAddress?: string; incoming?: IncomingMessage; admission?: RequestAdmission },
  ): Promise<Response>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** `Retry-After` of a call refused because the host's bound on waits is full. */
const BUSY_RETRY_AFTER_SECONDS = 5;
const DEFAULT_PER_IP: RateLimit = { limit: 3000, windowMs: 60_000 };
const DEFAULT_PER_PRINCIPAL: RateLimit = { limit: 600, windowMs: 60_000 };

/**
 * The origin a request was addressed to, normalised as a browser would (lower case, no default
 * port): two accepted Host names (`127.0.0.1` and `localhost` outside production) are two origins.
 */
function servedOrigin(protocol: string, host: string): string {
  return new URL(`${protocol}//${host}`).origin;
}

function limiterOf(limit: RateLimit | false | undefined, fallback: RateLimit): RateLimiter | undefined {
  return limit === false ? undefined : createRateLimiter(limit ?? fallback);
}

/**
 * `createSessMcpHttpHandler(options)`: the hosted MCP endpoint. In this order, on both faces: a
 * header-only preflight before any body byte (Host allowlist, exact Origin allowlist, CORS
 * preflight, per-IP limit, exactly one `authenticate` and the scope check, per-principal limit,
 * method), then a bounded body (413 / 415 / 408), the raw-body unsafe-key guard answered in the
 * request's era, then `createMcpHandler` (2026-07-28 plus the stateless 2025 fallback) with the
 * body passed parsed — or, for a plain tool call, the tool run at once and its result put in the
 * SDK's own framing for that era (./fast-paths/). One
 * absolute deadline runs from entry: 408 while the body is arriving, 503 while `authenticate` is
 * pending, `needs_resume` for a parked wait; a create, publish or complete already sent is never
 * abandoned. Every response carries `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`.
 */
export function createSessMcpHttpHandler(options: SessMcpHttpHandlerOptions): SessMcpHttpHandler {
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const deadlineTimers = options.deadlineTimers;
  const requiredScopes = options.requiredScopes ?? [];
  const logger = options.logger;
  const origins = createOriginAllowlist(options.allowedOrigins);
  // Handles are bound to the origin a request was addressed to: the endpoint's scheme (behind a
  // TLS proxy the socket is plain http, so it comes from the public resource URL) and its Host.
  const endpointProtocol = new URL(options.resourceMetadataUrl).protocol;

  // The scope of each request the edge let through, found again by the SDK's server factory
  // from the request it is building a server for: passed explicitly, never through authInfo.
  const scopes = new WeakMap<Request, RequestScope>();
  const toolDeps: ToolDeps = {
    ...(options.backend ? { backend: options.backend } : {}),
    ...(options.receipts ? { receipts: options.receipts } : {}),
    ...(logger ? { logger } : {}),
    now: options.now ?? (() => new Date()),
    maxWaitMs: Math.min(options.maxWaitMs ?? MAX_WAIT_MS, MAX_WAIT_MS),
  };
  // The deadline ends when the client leaves (the socket closes or the request aborts) or time is up.
  const tools = createToolRunner(toolDeps, { deadlineCoversRequest: true, onToolCall: options.onToolCall });
  const chat: ChatViewService | undefined = options.chat
    ? createChatViewService({ ...options.chat, now: toolDeps.now, logger, onToolCall: options.onToolCall }, listedTools())
    : undefined;
  // The requests the edge found to come from a host that renders apps (read by the server factory).
  const uiRequests = new WeakSet<Request>();
  // The requests that declared the Tasks extension, when the host keeps tasks (read by the server factory).
  const taskRequests = new WeakSet<Request>();
  const taskService = options.tasks
    ? createTaskService({ store: options.tasks, tools, backend: options.backend, now: toolDeps.now })
    : undefined;
  const buildServer = createServerFactory(
    tools,
    (ctx) => (ctx.requestInfo ? scopes.get(ctx.requestInfo) : undefined),
    {},
    chat && { service: chat, showsUi: (ctx) => ctx.requestInfo !== undefined && uiRequests.has(ctx.requestInfo) },
    taskService && {
      service: taskService,
      declares: (ctx) => ctx.requestInfo !== undefined && taskRequests.has(ctx.requestInfo),
    },
  );
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const mcp = createMcpHandler(buildServer, {
    legacy: 'stateless',
    maxRequestBodySize: maxBodyBytes,
    onerror: (error) => logger?.debug({ event: 'mcp.sdk.rejected', err: error.message }, 'sdk rejected a request'),
  });
  const callFrames = options.answerPlainCalls === false ? undefined : createCallFrames(maxBodyBytes);

  const edge: EdgeSettings = {
    authenticate: options.authenticate,
    hosts: createHostAllowlist(options.allowedHosts),
    wrongHostAdvice: options.wrongHostAdvice,
    origins,
    requiredScopes,
    resourceMetadataUrl: options.resourceMetadataUrl,
    maxBodyBytes,
    ipLimiter: limiterOf(options.rateLimit?.perIp, DEFAULT_PER_IP),
    principalLimiter: limiterOf(options.rateLimit?.perPrincipal, DEFAULT_PER_PRINCIPAL),
    toolsList: options.cacheToolsList === false ? undefined : createToolsListCache(mcp),
    callFrames,
    showsUi: chat ? requestShowsUi : () => false,
    logger,
  };

  /**
   * Past every step: the request's scope, bound store and deadline; a plain tool call run here,
   * anything else through the SDK. Promise reactions rather than an async function: a parked
   * wait would keep its frame for up to 45 s.
   */
  function dispatch({ incoming, deadline, admission, principal, body }: EdgeRequest): Promise<Response> {
    const tasked = taskService !== undefined && requestDeclaresTasks(body);
    // A declaring client's sess_response never parks: it reads once and gets a task.
    const kind = mayPark(body) && !tasked ? 'wait' : 'call';
    if (admission && !admission.admit(kind)) {
      logger?.debug({ event: 'mcp.http.busy', kind }, 'no room for another request of its kind');
      return Promise.resolve(busyResponse(BUSY_RETRY_AFTER_SECONDS, requestIdOf(body)));
    }
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
      // Read only by a tool that waits: the deadline makes its AbortController then, not for every call.
      get deadline() {
        return deadline.signal;
      },
    };
    const ui = chat !== undefined && requestShowsUi(incoming.headers, body);
    const toSdk = (): Promise<Response> => {
      // The SDK's AuthInfo is pure pass-through; it never carries the bearer token.
      const authInfo: AuthInfo = { token: '[not forwarded]', clientId: who.clientId, scopes: [...who.scopes] };
      if (who.expiresAt !== undefined) authInfo.expiresAt = who.expiresAt;
      const request = incoming.sdkRequest();
      scopes.set(request, scope);
      if (ui) uiRequests.add(request);
      if (tasked) taskRequests.add(request);
      const answered = mcp.fetch(request, { authInfo, parsedBody: body });
      // A 2025-era client said it renders apps in initialize: its session id says so from then on.
      return ui && initializeShowsUi(body) ? answered.then(withUiSession) : answered;
    };
    // A host that renders apps is answered by the SDK: its results carry the view's payload; a
    // request that declared the Tasks extension too: its answer may be a task.
    const call = callFrames && !ui && !tasked ? plainToolCall(incoming.headers, body, tools.names) : undefined;
    if (!call || !callFrames) return toSdk();
    return callFrames
      .frame(call.era)
      .then((frame) =>
        frame
          ? tools
              .call(call.name, call.args, () => scope)
              .then((result) => callFrames.answer(frame, call.id, result, tools.outputSchema(call.name)))
          : toSdk(),
      );
  }

  /** The answer to a 2025-era initialize that declared the UI extension, with its session id. */
  function withUiSession(response: Response): Response {
    if (response.status !== 200) return response;
    const headers = new Headers(response.headers);
    headers.set('mcp-session-id', newUiSessionId());
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }

  async function run(incoming: Incoming, deadline: Deadline, admission: RequestAdmission | undefined): Promise<Response> {
    const request: EdgeRequest = { incoming, deadline, admission };
    for (const step of EDGE_STEPS) {
      const answered = await step(request, edge);
      if (answered) return answered;
    }
    return dispatch(request);
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
   * a client leaving also aborts the deadline signal, releasing a parked wait at once. Promise
   * reactions rather than an async function: a parked wait would keep its frame for up to 45 s.
   */
  function serve(incoming: Incoming, admission: RequestAdmission | undefined): Promise<Response> {
    const deadline = new Deadline(timeoutMs, deadlineTimers);
    const origin = incoming.headers.get('origin');
    let finished = false;
    // A client leaving ends the deadline at once, which releases a parked wait.
    const stopWatching = incoming.onClientGone(() => {
      deadline.expire();
      done();
    });
    function done(): void {
      if (finished) return;
      finished = true;
      deadline.clear();
      stopWatching();
    }
    function answer(answered: Response): Response {
      // The call has run (an event stream's result is in it already): its place is free.
      admission?.release();
      const response = decorate(answered, origin);
      // Content type first: on @hono/node-server, touching `.body` turns its lightweight Response
      // into a full one, and a JSON answer would lose the direct write to the socket.
      if (isEventStream(response) && response.body !== null) {
        // Keep the deadline armed until the stream ends, then clear it.
        return untilStreamEnds(response, done);
      }
      done();
      return response;
    }
    return run(incoming, deadline, admission).then(answer, (error: unknown) => {
      done();
      logger?.error({ event: 'mcp.http.failed', err: error }, 'mcp request failed');
      return answer(jsonRpcError(500, -32603, 'Internal server error'));
    });
  }

  return {
    fetch(request, info) {
      return serve(toIncoming(request, info), info?.admission);
    },

    async close() {
      await mcp.close();
      await callFrames?.close();
    },
  };
}
