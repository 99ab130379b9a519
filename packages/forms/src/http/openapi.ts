import { interactionJsonSchema, sessAskInputSchema, sessRequestInputSchema } from '@sess/surface';

/*
 * The OpenAPI 3.1 document of /v1, served at GET /v1/openapi.json. Request schemas come from
 * @sess/surface (the same zod definitions that validate), so the document cannot drift from
 * what the server accepts.
 */

const error = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable'],
      properties: {
        code: { type: 'string', description: 'Stable code (docs/errors.md).' },
        message: { type: 'string' },
        retryable: { type: 'boolean' },
        field: { type: 'string', description: 'RFC 6901 JSON pointer into the request.' },
        limit: { type: 'number' },
        length: { type: 'number' },
        currentRevision: { type: 'integer' },
      },
    },
    requestId: { type: 'string' },
  },
};

const answer = {
  type: 'object',
  required: ['eventId', 'revision', 'actionId', 'values', 'answeredAt', 'surfaceSha256', 'answerSha256', 'receipt'],
  properties: {
    eventId: { type: 'string' },
    revision: { type: 'integer' },
    actionId: { type: 'string' },
    values: { type: 'object' },
    answeredAt: { type: 'string', format: 'date-time' },
    surfaceSha256: { type: 'string' },
    answerSha256: { type: 'string' },
    receipt: { type: 'string', description: 'Compact JWS (ES256); verify against /.well-known/jwks.json.' },
    respondentId: { type: 'string' },
    respondentName: { type: ['string', 'null'] },
  },
};

const session = {
  type: 'object',
  properties: {
    sessionId: { type: 'string' },
    kind: { const: 'interaction' },
    revision: { type: 'integer' },
    state: { enum: ['waiting', 'answered', 'completed', 'expired', 'withdrawn'] },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: 'string', format: 'date-time' },
    deadlineAt: { type: 'string', format: 'date-time' },
    horizonAt: { type: ['string', 'null'], format: 'date-time' },
    extendable: { type: 'boolean' },
    surfaceSha256: { type: 'string' },
    completedAt: { type: ['string', 'null'] },
    withdrawnAt: { type: ['string', 'null'] },
    response: { oneOf: [{ $ref: '#/components/schemas/Answer' }, { type: 'null' }] },
  },
};

const json = (schema: unknown) => ({ 'application/json': { schema } });
const errors = {
  '400': { description: 'INVALID_ARGUMENTS', content: json({ $ref: '#/components/schemas/Error' }) },
  '401': { description: 'UNAUTHORIZED', content: json({ $ref: '#/components/schemas/Error' }) },
  '404': { description: 'NOT_FOUND (also another workspace’s resource)', content: json({ $ref: '#/components/schemas/Error' }) },
};
const writeHeaders = [{ $ref: '#/components/parameters/IdempotencyKey' }];
const revisionHeaders = [{ $ref: '#/components/parameters/IfMatch' }, ...writeHeaders];
const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/** Builds the document for a server at `publicUrl`. */
export function buildOpenApiDocument(publicUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sess runtime API',
      version: '1',
      description:
        'Create a form behind a link, wait for a person’s answer, show the next step or complete. Every authenticated response carries Sess-Workspace-Id.',
    },
    servers: [{ url: publicUrl }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'A workspace API key (sess_…).' } },
      parameters: {
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', maxLength: 255 } },
        IfMatch: { name: 'If-Match', in: 'header', required: true, schema: { type: 'string', example: '"1"' } },
      },
      schemas: { Error: error, Answer: answer, Session: session, Interaction: interactionJsonSchema() },
    },
    paths: {
      '/v1/sessions': {
        post: {
          summary: 'Create a session (sess_request)',
          parameters: writeHeaders,
          requestBody: { required: true, content: json(sessRequestInputSchema()) },
          responses: {
            '201': { description: 'Created; humanUrl is shown only here.' },
            '422': { description: 'PLAN_LIMIT_REACHED' },
            ...errors,
          },
        },
        get: {
          summary: 'List sessions and Asks, newest first',
          parameters: [
            {
              name: 'status',
              in: 'query',
              schema: { type: 'string' },
              description: 'Comma-separated: waiting, answered, completed, expired, withdrawn, closed.',
            },
            { name: 'kind', in: 'query', schema: { enum: ['interaction', 'ask'] } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'cursor', in: 'query', schema: { type: 'string' } },
          ],
          responses: { '200': { description: '{ sessions, nextCursor }' }, ...errors },
        },
      },
      '/v1/sessions/{id}': {
        get: {
          summary: 'Read a session, optionally waiting for an answer',
          parameters: [
            id,
            { name: 'revision', in: 'query', schema: { type: 'integer', minimum: 1 } },
            { name: 'wait_ms', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 45000 } },
          ],
          responses: {
            '200': { description: 'The session; ETag is its revision.', content: json({ $ref: '#/components/schemas/Session' }) },
            ...errors,
          },
        },
      },
      '/v1/sessions/{id}/publish': {
        post: {
          summary: 'Show the next Surface at revision + 1 (sess_publish)',
          parameters: [id, ...revisionHeaders],
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              additionalProperties: false,
              required: ['response_event_id', 'interaction'],
              properties: { response_event_id: { type: 'string' }, interaction: { $ref: '#/components/schemas/Interaction' } },
            }),
          },
          responses: {
            '200': { description: 'The session at the next revision.' },
            '409': { description: 'REVISION_MISMATCH, RESPONSE_MISMATCH, INVALID_STATE, IDEMPOTENCY_KEY_REUSED' },
            '428': { description: 'PRECONDITION_REQUIRED' },
            ...errors,
          },
        },
      },
      '/v1/sessions/{id}/complete': {
        post: {
          summary: 'Close the link, keeping the answer (sess_complete)',
          parameters: [id, ...revisionHeaders],
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              additionalProperties: false,
              required: ['response_event_id'],
              properties: { response_event_id: { type: 'string' } },
            }),
          },
          responses: {
            '200': { description: 'The completed session.' },
            '409': { description: 'Conflict' },
            '428': { description: 'PRECONDITION_REQUIRED' },
            ...errors,
          },
        },
      },
      '/v1/sessions/{id}/withdraw': {
        post: {
          summary: 'Withdraw the question (idempotent; sess_cancel)',
          parameters: [id, ...writeHeaders],
          responses: { '200': { description: '{ sessionId, state: "withdrawn", withdrawnAt }' }, ...errors },
        },
      },
      '/v1/asks': {
        post: {
          summary: 'Create an Ask (sess_ask with respondents)',
          parameters: writeHeaders,
          requestBody: { required: true, content: json(sessAskInputSchema()) },
          responses: { '201': { description: 'Created; humanUrl is the shared link.' }, ...errors },
        },
      },
      '/v1/asks/{id}': {
        get: {
          summary: 'Read an Ask: open, counts, every answer with its receipt',
          parameters: [id],
          responses: { '200': { description: 'The Ask.' }, ...errors },
        },
      },
      '/.well-known/jwks.json': {
        get: {
          summary: 'Receipt verification keys (active and previous)',
          security: [],
          responses: { '200': { description: 'JWK Set' } },
        },
      },
    },
  };
}
