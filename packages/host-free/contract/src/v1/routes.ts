import { z } from 'zod';
import { ErrorResponseSchema } from '../errors.ts';
import { EventExportQuerySchema, EventPageQuerySchema, EventPageSchema, InteractionEventSchema } from '../events.ts';
import {
  CreatedWebhookSchema,
  CreateWebhookRequestSchema,
  DeletedWebhookSchema,
  RotatedWebhookSchema,
  WebhookDeliveryListSchema,
  WebhookListSchema,
  WebhookTestSentSchema,
} from '../webhooks.ts';
import {
  CompleteSessionRequestSchema,
  CreateAskRequestSchema,
  CreateSessionRequestSchema,
  ListSessionsQuerySchema,
  PublishSessionRequestSchema,
  ReadSessionQuerySchema,
  WithdrawSessionRequestSchema,
} from './requests.ts';
import {
  AskViewSchema,
  CreatedAskSchema,
  CreatedSessionSchema,
  JwksSchema,
  SessionListSchema,
  SessionViewSchema,
  WithdrawnSessionSchema,
} from './views.ts';

/*
 * Every /v1 route in one table: its parameters and headers, its body, and each status it answers
 * with, the schema of that body and the headers that come with it. The OpenAPI document is built
 * from this table, and the contract test holds real responses of each route to it.
 */

/** A response header the API documents. */
export type V1ResponseHeader = 'ETag' | 'Location' | 'Sess-Workspace-Id' | 'Retry-After' | 'WWW-Authenticate' | 'Cache-Control';

/** One status of a route: what it means, the body's schema, and the headers that come with it. */
export interface V1Response {
  description: string;
  schema: z.ZodType;
  /** `application/json` unless said otherwise. */
  contentType?: string;
  headers: readonly V1ResponseHeader[];
}

export interface V1Route {
  operationId: string;
  method: 'get' | 'post' | 'delete';
  /** The OpenAPI path template (`/v1/sessions/{id}`). */
  path: string;
  summary: string;
  /** Needs `Authorization: Bearer <API key>`. */
  authenticated: boolean;
  /** What the `{id}` path parameter names, for routes that have one. */
  id?: string;
  query?: z.ZodObject;
  /** Needs `Idempotency-Key`. */
  idempotencyKey: boolean;
  /** Needs `If-Match: "<revision>"`. */
  ifMatch: boolean;
  body?: { schema: z.ZodType; required: boolean };
  responses: Readonly<Record<number, V1Response>>;
}

const AUTHENTICATED: readonly V1ResponseHeader[] = ['Sess-Workspace-Id', 'Cache-Control'];

function error(description: string, headers: readonly V1ResponseHeader[] = AUTHENTICATED): V1Response {
  return { description, schema: ErrorResponseSchema, headers };
}

/** The errors every authenticated route can answer with. */
const COMMON_ERRORS = {
  400: error('INVALID_ARGUMENTS: an unknown query parameter, or a value out of range (field names it).'),
  401: error('UNAUTHORIZED: no API key, or not a live one.', ['WWW-Authenticate', 'Cache-Control']),
  500: error('INTERNAL: a fault on our side; the cause is logged with the request id.'),
  503: error('SESS_UNAVAILABLE: the database cannot be reached; retry after Retry-After seconds.', [
    ...AUTHENTICATED,
    'Retry-After',
  ]),
} as const;

/** The errors of a write that carries a body. */
const WRITE_ERRORS = {
  ...COMMON_ERRORS,
  400: error(
    'INVALID_ARGUMENTS: the body is not valid JSON, is not closed, or a value is out of its limits (field, limit, length); or Idempotency-Key is malformed (header).',
  ),
  413: error('PAYLOAD_TOO_LARGE: the body is over 64 KiB (limit).'),
  415: error('UNSUPPORTED_MEDIA_TYPE: the body is not application/json.'),
  428: error('PRECONDITION_REQUIRED: Idempotency-Key (or If-Match) is missing (header).'),
} as const;

const ok = (description: string, schema: z.ZodType, headers: readonly V1ResponseHeader[] = AUTHENTICATED): V1Response => ({
  description,
  schema,
  headers,
});

/** Every route of /v1, and the two public documents beside it. */
export const V1_ROUTES = [
  {
    operationId: 'createSession',
    method: 'post',
    path: '/v1/sessions',
    summary: 'Create a session (sess_request)',
    authenticated: true,
    idempotencyKey: true,
    ifMatch: false,
    body: { schema: CreateSessionRequestSchema, required: true },
    responses: {
      201: ok('Created; humanUrl is shown only here. ETag is the revision, Location the session.', CreatedSessionSchema, [
        ...AUTHENTICATED,
        'ETag',
        'Location',
      ]),
      ...WRITE_ERRORS,
      409: error('IDEMPOTENCY_KEY_REUSED: the key was used for another request.'),
      422: error('PLAN_LIMIT_REACHED: the workspace has as many open sessions as its plan allows (limit, plan).'),
    },
  },
  {
    operationId: 'listSessions',
    method: 'get',
    path: '/v1/sessions',
    summary: 'List sessions and Asks, newest first',
    authenticated: true,
    query: ListSessionsQuerySchema,
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: ok('A page of sessions and Asks.', SessionListSchema),
      ...COMMON_ERRORS,
      400: error('INVALID_ARGUMENTS: an unknown status (field /status/<i>), kind, limit or cursor.'),
    },
  },
  {
    operationId: 'readSession',
    method: 'get',
    path: '/v1/sessions/{id}',
    summary: 'Read a session, optionally waiting for an answer',
    authenticated: true,
    id: 'The session (ses_…).',
    query: ReadSessionQuerySchema,
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: ok('The session; ETag is its current revision.', SessionViewSchema, [...AUTHENTICATED, 'ETag']),
      ...COMMON_ERRORS,
      404: error('NOT_FOUND: no such session in this workspace (another workspace’s too).'),
      409: error('INVALID_STATE: the id is an Ask (read it at /v1/asks/{id}); REVISION_MISMATCH: no such revision yet.'),
    },
  },
  {
    operationId: 'publishSession',
    method: 'post',
    path: '/v1/sessions/{id}/publish',
    summary: 'Show the next Surface at revision + 1 (sess_publish)',
    authenticated: true,
    id: 'The session (ses_…).',
    idempotencyKey: true,
    ifMatch: true,
    body: { schema: PublishSessionRequestSchema, required: true },
    responses: {
      200: ok('The session at the next revision, waiting.', SessionViewSchema, [...AUTHENTICATED, 'ETag']),
      ...WRITE_ERRORS,
      400: error('INVALID_ARGUMENTS: as for every write, or If-Match is not a revision (header).'),
      404: error('NOT_FOUND: no such session in this workspace.'),
      409: error(
        'REVISION_MISMATCH (currentRevision), RESPONSE_MISMATCH, INVALID_STATE (an Ask, withdrawn, completed, not answered yet, expired), IDEMPOTENCY_KEY_REUSED.',
      ),
    },
  },
  {
    operationId: 'completeSession',
    method: 'post',
    path: '/v1/sessions/{id}/complete',
    summary: 'Close the link, keeping the answer (sess_complete)',
    authenticated: true,
    id: 'The session (ses_…).',
    idempotencyKey: true,
    ifMatch: true,
    body: { schema: CompleteSessionRequestSchema, required: true },
    responses: {
      200: ok('The completed session with its last answer.', SessionViewSchema, [...AUTHENTICATED, 'ETag']),
      ...WRITE_ERRORS,
      400: error('INVALID_ARGUMENTS: as for every write, or If-Match is not a revision (header).'),
      404: error('NOT_FOUND: no such session in this workspace.'),
      409: error(
        'REVISION_MISMATCH (currentRevision), RESPONSE_MISMATCH, INVALID_STATE (an Ask, withdrawn, completed, not answered yet), IDEMPOTENCY_KEY_REUSED.',
      ),
    },
  },
  {
    operationId: 'withdrawSession',
    method: 'post',
    path: '/v1/sessions/{id}/withdraw',
    summary: 'Withdraw the question (idempotent; sess_cancel; also closes an Ask)',
    authenticated: true,
    id: 'The session (ses_…) or Ask (ask_…).',
    idempotencyKey: true,
    ifMatch: false,
    body: { schema: WithdrawSessionRequestSchema, required: false },
    responses: {
      200: ok('Withdrawn (the same result on every repeat).', WithdrawnSessionSchema),
      ...WRITE_ERRORS,
      404: error('NOT_FOUND: no such session or Ask in this workspace.'),
      409: error('INVALID_STATE: already completed; IDEMPOTENCY_KEY_REUSED.'),
    },
  },
  {
    operationId: 'createAsk',
    method: 'post',
    path: '/v1/asks',
    summary: 'Create an Ask (sess_ask with respondents)',
    authenticated: true,
    idempotencyKey: true,
    ifMatch: false,
    body: { schema: CreateAskRequestSchema, required: true },
    responses: {
      201: ok('Created; humanUrl is the shared link, shown only here. Location is the Ask.', CreatedAskSchema, [
        ...AUTHENTICATED,
        'Location',
      ]),
      ...WRITE_ERRORS,
      409: error('IDEMPOTENCY_KEY_REUSED: the key was used for another request.'),
      422: error('PLAN_LIMIT_REACHED: the workspace has as many open sessions as its plan allows (limit, plan).'),
    },
  },
  {
    operationId: 'readAsk',
    method: 'get',
    path: '/v1/asks/{id}',
    summary: 'Read an Ask: open, counts, every answer with its receipt',
    authenticated: true,
    id: 'The Ask (ask_…).',
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: ok('The Ask.', AskViewSchema),
      ...COMMON_ERRORS,
      404: error('NOT_FOUND: no such Ask in this workspace.'),
    },
  },
  {
    operationId: 'createWebhook',
    method: 'post',
    path: '/v1/webhooks',
    summary: 'Register a webhook endpoint (its signing secret is shown only here)',
    authenticated: true,
    idempotencyKey: true,
    ifMatch: false,
    body: { schema: CreateWebhookRequestSchema, required: true },
    responses: {
      201: ok('Registered; secret (whsec_…) is shown only here. Location is the endpoint.', CreatedWebhookSchema, [
        ...AUTHENTICATED,
        'Location',
      ]),
      ...WRITE_ERRORS,
      400: error(
        'INVALID_ARGUMENTS: the body is not valid JSON or a value is out of its limits (field); WEBHOOK_URL_REFUSED: url is not https or names a private address (field /url, reason).',
      ),
      409: error('IDEMPOTENCY_KEY_REUSED: the key was used for another request.'),
      422: error('PLAN_LIMIT_REACHED: the workspace has as many endpoints as it may (limit).'),
    },
  },
  {
    operationId: 'listWebhooks',
    method: 'get',
    path: '/v1/webhooks',
    summary: 'List the workspace’s webhook endpoints',
    authenticated: true,
    idempotencyKey: false,
    ifMatch: false,
    responses: { 200: ok('The endpoints, oldest first; never their secrets.', WebhookListSchema), ...COMMON_ERRORS },
  },
  {
    operationId: 'deleteWebhook',
    method: 'delete',
    path: '/v1/webhooks/{id}',
    summary: 'Remove a webhook endpoint and its delivery log',
    authenticated: true,
    id: 'The endpoint (whe_…).',
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: ok('Removed.', DeletedWebhookSchema),
      ...COMMON_ERRORS,
      404: error('NOT_FOUND: no such endpoint in this workspace.'),
    },
  },
  {
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: '/v1/webhooks/{id}/rotate',
    summary: 'A new signing secret; the old one signs too for 24 hours',
    authenticated: true,
    id: 'The endpoint (whe_…).',
    idempotencyKey: true,
    ifMatch: false,
    responses: {
      200: ok('The new secret, shown only here, and until when the old one still signs.', RotatedWebhookSchema),
      ...COMMON_ERRORS,
      404: error('NOT_FOUND: no such endpoint in this workspace.'),
      409: error('IDEMPOTENCY_KEY_REUSED: the key was used for another request.'),
      428: error('PRECONDITION_REQUIRED: Idempotency-Key is missing (header).'),
    },
  },
  {
    operationId: 'testWebhook',
    method: 'post',
    path: '/v1/webhooks/{id}/test',
    summary: 'Send a test event to the endpoint',
    authenticated: true,
    id: 'The endpoint (whe_…).',
    idempotencyKey: true,
    ifMatch: false,
    responses: {
      202: ok('Queued; its tries show in the delivery log.', WebhookTestSentSchema),
      ...COMMON_ERRORS,
      404: error('NOT_FOUND: no such endpoint in this workspace.'),
      409: error('IDEMPOTENCY_KEY_REUSED: the key was used for another request.'),
      428: error('PRECONDITION_REQUIRED: Idempotency-Key is missing (header).'),
    },
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    summary: 'The endpoint’s last deliveries and their tries',
    authenticated: true,
    id: 'The endpoint (whe_…).',
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: ok('The last 50 deliveries, newest first.', WebhookDeliveryListSchema),
      ...COMMON_ERRORS,
      404: error('NOT_FOUND: no such endpoint in this workspace.'),
    },
  },
  {
    operationId: 'listSessionEvents',
    method: 'get',
    path: '/v1/sessions/{id}/events',
    summary: 'A session’s or Ask’s timeline, oldest first',
    authenticated: true,
    id: 'The session or Ask (ses_… or ask_…).',
    query: EventPageQuerySchema,
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: ok('A page of its events.', EventPageSchema),
      ...COMMON_ERRORS,
      400: error('INVALID_ARGUMENTS: a limit out of 1–500 or a cursor this route did not give (field).'),
      404: error('NOT_FOUND: no such session in this workspace.'),
    },
  },
  {
    operationId: 'exportEvents',
    method: 'get',
    path: '/v1/events',
    summary: 'Export the workspace’s event chain for a date range (JSON Lines)',
    authenticated: true,
    query: EventExportQuerySchema,
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: {
        description:
          'One event per line, in chain order (seq), an unbroken stretch of the chain: check it with `sess events verify <file>`.',
        schema: InteractionEventSchema,
        contentType: 'application/x-ndjson',
        headers: AUTHENTICATED,
      },
      ...COMMON_ERRORS,
      400: error('INVALID_ARGUMENTS: since (or after) missing, or a date that is not ISO 8601 (field).'),
    },
  },
  {
    operationId: 'readOpenApi',
    method: 'get',
    path: '/v1/openapi.json',
    summary: 'This document',
    authenticated: false,
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: ok('The OpenAPI 3.1 document of /v1.', z.record(z.string(), z.unknown()), ['Cache-Control']),
    },
  },
  {
    operationId: 'readJwks',
    method: 'get',
    path: '/.well-known/jwks.json',
    summary: 'Receipt verification keys (active and previous)',
    authenticated: false,
    idempotencyKey: false,
    ifMatch: false,
    responses: {
      200: { description: 'JWK Set', schema: JwksSchema, contentType: 'application/jwk-set+json', headers: ['Cache-Control'] },
    },
  },
] as const satisfies readonly V1Route[];

/** A route's name, its `operationId`. */
export type V1OperationId = (typeof V1_ROUTES)[number]['operationId'];
/** The route of an operation, with its own query schema's type. */
export type V1RouteOf<Op extends V1OperationId> = Extract<(typeof V1_ROUTES)[number], { operationId: Op }>;

/** The route of an operation. */
export function v1RouteOf<Op extends V1OperationId>(operationId: Op): V1RouteOf<Op> {
  return V1_ROUTES.find((route) => route.operationId === operationId) as V1RouteOf<Op>;
}

/** The route a request goes to (`path` without its query), or undefined. */
export function findV1Route(method: string, path: string): V1Route | undefined {
  const m = method.toLowerCase();
  return (V1_ROUTES as readonly V1Route[]).find((route) => {
    if (route.method !== m) return false;
    const pattern = new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace('{id}', '[^/]+')}$`);
    return pattern.test(path);
  });
}
