import { isJsonContentType } from '@modelcontextprotocol/server';
import { bearerChallenge, hasBearerCredential } from '@sess/core';
import type { SessPrincipal } from '@sess/interactions';
import type { Deadline } from './deadline.ts';
import type { EdgeSettings, Incoming, Step } from './edge-request.ts';
import { plainToolsListEra } from './fast-paths/tools-list-cache.ts';
import { corsHeaders, isHostAllowed, isOriginAllowed } from './preflight.ts';
import { jsonResponse, jsonRpcError } from './responses.ts';
import { unsafeKeyResponse } from './unsafe-key-response.ts';
import { findUnsafeKey } from './unsafe-keys.ts';

/*
 * The edge's checks, one named step each, in the seed's order: a header-only preflight before
 * any body byte is read (Host, Origin, CORS preflight, the per-address limit, exactly one
 * authenticate, scopes, the per-principal limit, method, declared length, content type), then the
 * bounded body, the unsafe-key guard answered in the request's era, and plain tools/list from
 * the cache. A step answers (and the request ends there) or returns nothing (and it goes on).
 * @see https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http (Security)
 */

function reject(edge: EdgeSettings, status: number, reason: string, response: Response): Response {
  edge.logger?.debug({ event: 'mcp.http.rejected', status, reason }, 'request rejected');
  return response;
}

function rateLimited(edge: EdgeSettings, reason: string, retryAfterSeconds: number): Response {
  const response = jsonRpcError(429, -32000, 'Rate limit exceeded. Try again later.', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
  return reject(edge, 429, reason, response);
}

/** The answer to a body over the limit, declared or streamed. */
export function tooLarge(maxBodyBytes: number): Response {
  return jsonRpcError(413, -32000, `Payload Too Large: Request body must not exceed ${maxBodyBytes} bytes`);
}

function challenge(edge: EdgeSettings, error?: 'invalid_token' | 'insufficient_scope', description?: string): string {
  return bearerChallenge({
    resourceMetadataUrl: edge.resourceMetadataUrl,
    scopes: edge.requiredScopes,
    ...(error ? { error } : {}),
    ...(description ? { description } : {}),
  });
}

/** Longest Host echoed in a 403 or a log line: a real one is far shorter. */
const SHOWN_HOST_MAX = 100;

/** A refused Host as it may be shown: no control or bidirectional characters, at most 100 characters. */
export function showHost(host: string | null): string {
  if (host === null) return '(none)';
  const clean = host.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '');
  return clean.length > SHOWN_HOST_MAX ? `${clean.slice(0, SHOWN_HOST_MAX)}…` : clean;
}

/**
 * DNS-rebinding defence: only the Hosts this endpoint serves. The 403 names them (a client
 * pointed at the wrong address learns which one to use) and the refused Host is logged.
 */
const checkHost: Step = ({ incoming }, edge) => {
  if (isHostAllowed(incoming.host, edge.hosts)) return undefined;
  const shown = showHost(incoming.host);
  edge.logger?.info({ event: 'mcp.http.wrong_host', host: shown }, 'request for a Host not served here');
  const served = [...edge.hosts.exact].join(', ');
  const advice = edge.wrongHostAdvice ? ` ${edge.wrongHostAdvice}` : '';
  const message = `Forbidden: Host '${shown}' is not served here; this server answers for ${served}.${advice}`;
  return reject(edge, 403, 'host', jsonRpcError(403, -32000, message));
};

/** A browser Origin must be listed; a request without one is a non-browser client. */
const checkOrigin: Step = ({ incoming }, edge) =>
  isOriginAllowed(incoming.headers.get('origin'), edge.origins)
    ? undefined
    : reject(edge, 403, 'origin', jsonRpcError(403, -32600, 'Forbidden: this Origin is not allowed.'));

/** A CORS preflight of an allowed origin. */
const answerCorsPreflight: Step = ({ incoming }) =>
  incoming.method === 'OPTIONS'
    ? new Response(null, { status: 204, headers: corsHeaders(incoming.headers.get('origin'), true) })
    : undefined;

const limitByAddress: Step = ({ incoming }, edge) => {
  const hit = edge.ipLimiter?.hit(incoming.clientAddress);
  return hit && !hit.ok ? rateLimited(edge, 'ip_rate', hit.retryAfterSeconds) : undefined;
};

/** Calls `authenticate` once, racing the request's deadline; a throwing hook is `failed`, never a 401. */
async function authenticateOnce(
  incoming: Incoming,
  deadline: Deadline,
  edge: EdgeSettings,
): Promise<SessPrincipal | null | 'timeout' | 'failed'> {
  let stop: (() => void) | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    stop = deadline.onExpire(() => resolve('timeout'));
  });
  try {
    const attempt = Promise.resolve()
      .then(() => edge.authenticate({ method: incoming.method, url: incoming.url, headers: incoming.headers }))
      .then(
        (principal) => principal ?? null,
        (error: unknown) => {
          edge.logger?.error({ event: 'mcp.http.authenticate_failed', err: error }, 'authenticate threw');
          return 'failed' as const;
        },
      );
    return await Promise.race([attempt, timedOut]);
  } finally {
    stop?.();
  }
}

/** Exactly one authenticate; a store that cannot answer is 503, never a 401 that sends the person to sign in. */
const authenticatePrincipal: Step = async (request, edge) => {
  const principal = await authenticateOnce(request.incoming, request.deadline, edge);
  if (principal === 'timeout' || principal === 'failed') {
    const text =
      principal === 'timeout'
        ? 'Sign-in could not be checked in time. Try again.'
        : 'Sign-in could not be checked just now. Try again.';
    return reject(edge, 503, `authenticate_${principal}`, jsonRpcError(503, -32000, text, { headers: { 'Retry-After': '5' } }));
  }
  if (principal === null) {
    const presented = hasBearerCredential(request.incoming.headers.get('authorization'));
    const header = presented
      ? challenge(edge, 'invalid_token', 'The access token is invalid, expired or revoked.')
      : challenge(edge);
    const body = presented
      ? { error: 'invalid_token', error_description: 'The access token is invalid, expired or revoked. Sign in again.' }
      : { error: 'unauthorized', error_description: 'Sign in to Sess: this endpoint needs an OAuth access token.' };
    return reject(edge, 401, presented ? 'invalid_token' : 'no_token', jsonResponse(401, body, { 'WWW-Authenticate': header }));
  }
  request.principal = principal;
  return undefined;
};

const checkScopes: Step = ({ principal }, edge) => {
  const { requiredScopes } = edge;
  if (requiredScopes.every((scope) => principal!.scopes.includes(scope))) return undefined;
  const body = { error: 'insufficient_scope', error_description: `This needs the scope ${requiredScopes.join(' ')}.` };
  const header = challenge(edge, 'insufficient_scope', `Requires ${requiredScopes.join(' ')}.`);
  return reject(edge, 403, 'insufficient_scope', jsonResponse(403, body, { 'WWW-Authenticate': header }));
};

const limitByPrincipal: Step = ({ principal }, edge) => {
  const hit = edge.principalLimiter?.hit(`${principal!.workspaceId}:${principal!.principalId}`);
  return hit && !hit.ok ? rateLimited(edge, 'principal_rate', hit.retryAfterSeconds) : undefined;
};

/** POST only: health lives at /healthz, and this stateless endpoint opens no GET stream. */
const checkMethod: Step = ({ incoming }, edge) =>
  incoming.method === 'POST'
    ? undefined
    : reject(edge, 405, 'method', jsonRpcError(405, -32000, 'Method not allowed.', { headers: { Allow: 'POST' } }));

const checkDeclaredLength: Step = ({ incoming }, edge) => {
  const declared = incoming.headers.get('content-length');
  return declared !== null && Number(declared) > edge.maxBodyBytes
    ? reject(edge, 413, 'declared_too_large', tooLarge(edge.maxBodyBytes))
    : undefined;
};

const checkContentType: Step = ({ incoming }, edge) =>
  isJsonContentType(incoming.headers.get('content-type'))
    ? undefined
    : reject(
        edge,
        415,
        'content_type',
        jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json'),
      );

/** The body, bounded in size and in time (the request's one deadline), parsed as JSON. */
const readBoundedBody: Step = async (request, edge) => {
  const read = await request.incoming.readBody(edge.maxBodyBytes, request.deadline);
  switch (read.kind) {
    case 'too_large':
      return reject(edge, 413, 'too_large', tooLarge(edge.maxBodyBytes));
    case 'timeout':
      return reject(edge, 408, 'body_timeout', jsonRpcError(408, -32000, 'Request Timeout: the body did not arrive in time.'));
    case 'aborted':
      return reject(edge, 400, 'body_aborted', jsonRpcError(400, -32700, 'Parse error: the request body could not be read'));
    case 'ok':
      break;
  }
  try {
    request.body = read.text.length === 0 ? undefined : JSON.parse(read.text);
  } catch {
    request.body = undefined;
  }
  return request.body === undefined
    ? reject(edge, 400, 'parse', jsonRpcError(400, -32700, 'Parse error: Invalid JSON'))
    : undefined;
};

/** `__proto__`, `constructor` and `prototype` anywhere, refused in the request's protocol era. */
const refuseUnsafeKeys: Step = ({ incoming, body }, edge) => {
  const unsafe = findUnsafeKey(body);
  // Not async: a body without one (every ordinary request) passes without a promise.
  return unsafe
    ? unsafeKeyResponse(incoming.sdkRequest(), body, unsafe, edge.callFrames).then((response) =>
        reject(edge, 400, 'unsafe_key', response),
      )
    : undefined;
};

/** A plain tools/list is the same for everyone but a host that renders apps: the SDK's own answer, made once. */
const answerToolsListFromCache: Step = async ({ incoming, body }, edge) => {
  const plain = edge.toolsList && !edge.showsUi(incoming.headers, body) ? plainToolsListEra(incoming.headers, body) : undefined;
  return plain ? await edge.toolsList!.respond(plain.era, plain.id) : undefined;
};

/** The pipeline, in order. Past the last step the request goes to the MCP SDK. */
export const EDGE_STEPS: readonly Step[] = [
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
