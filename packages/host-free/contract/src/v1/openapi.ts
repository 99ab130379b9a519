import { SurfaceSchema } from '@sess/surface';
import { z } from 'zod';
import { ErrorResponseSchema } from '../errors.ts';
import { deepFreeze, GENERATION_OPTIONS } from '../json-schema/to-json-schema.ts';
import {
  CompleteSessionRequestSchema,
  CreateAskRequestSchema,
  CreateSessionRequestSchema,
  IdempotencyKeySchema,
  IfMatchSchema,
  PublishSessionRequestSchema,
  WithdrawSessionRequestSchema,
} from './requests.ts';
import { V1_ROUTES, type V1Response, type V1ResponseHeader, type V1Route } from './routes.ts';
import {
  AnswerViewSchema,
  AskViewSchema,
  CreatedAskSchema,
  CreatedSessionSchema,
  JwksSchema,
  SessionListSchema,
  SessionSummarySchema,
  SessionViewSchema,
  WithdrawnSessionSchema,
} from './views.ts';

/*
 * The OpenAPI 3.1 document of /v1, generated from the contract's zod schemas and route table:
 * the request bodies the runtime validates, every response of every route with its schema and
 * headers. Nothing in it is written by hand but the prose.
 * @see https://spec.openapis.org/oas/v3.1.0
 */

type Json = Record<string, unknown>;

/** The named schemas under `components.schemas`, referenced from the paths. */
const COMPONENTS: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['Interaction', SurfaceSchema],
  ['CreateSessionRequest', CreateSessionRequestSchema],
  ['CreateAskRequest', CreateAskRequestSchema],
  ['PublishSessionRequest', PublishSessionRequestSchema],
  ['CompleteSessionRequest', CompleteSessionRequestSchema],
  ['WithdrawSessionRequest', WithdrawSessionRequestSchema],
  ['Answer', AnswerViewSchema],
  ['Session', SessionViewSchema],
  ['CreatedSession', CreatedSessionSchema],
  ['CreatedAsk', CreatedAskSchema],
  ['Ask', AskViewSchema],
  ['WithdrawnSession', WithdrawnSessionSchema],
  ['SessionSummary', SessionSummarySchema],
  ['SessionList', SessionListSchema],
  ['Error', ErrorResponseSchema],
  ['Jwks', JwksSchema],
];

const HEADERS: Record<V1ResponseHeader | 'X-Request-Id', Json> = {
  ETag: {
    description: 'The session’s current revision, quoted ("3"): send it back as If-Match.',
    schema: { type: 'string', examples: ['"1"'] },
  },
  Location: { description: 'Where the new session or Ask is read.', schema: { type: 'string' } },
  'Sess-Workspace-Id': { description: 'The workspace the API key acts in (ws_…).', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: 'The bearer challenge: Bearer realm="sess".', schema: { type: 'string' } },
  'Cache-Control': {
    description: 'no-store on every authenticated response; the public documents may be cached.',
    schema: { type: 'string' },
  },
  'X-Request-Id': {
    description: 'The request’s id (a sane incoming one is kept); quote it when asking for help.',
    schema: { type: 'string' },
  },
};

/** A component's name in `#/components/headers` and `#/components/parameters`: no dashes. */
const componentName = (header: string) => header.replace(/-/g, '');

function withoutDialect(schema: Json): Json {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

function generateComponents(): { schemas: Json; names: Map<z.ZodType, string> } {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of COMPONENTS) {
    registry.add(schema, { id: name });
    names.set(schema, name);
  }
  const generated = z.toJSONSchema(registry, { ...GENERATION_OPTIONS, uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, Json>;
  };
  if ('__shared' in generated.schemas) throw new Error('a schema is shared without a name: register it in COMPONENTS');
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(generated.schemas)) schemas[name] = withoutDialect(schema);
  return { schemas, names };
}

function schemaOf(schema: z.ZodType, names: Map<z.ZodType, string>): Json {
  const name = names.get(schema);
  if (name) return { $ref: `#/components/schemas/${name}` };
  return withoutDialect(z.toJSONSchema(schema, GENERATION_OPTIONS) as Json);
}

/** A query parameter from one field of a route's query schema (`description` moves up to the parameter). */
function queryParameter(name: string, field: z.ZodType): Json {
  const { description, ...schema } = withoutDialect(z.toJSONSchema(field, GENERATION_OPTIONS) as Json);
  const parameter: Json = { name, in: 'query', required: !field.safeParse(undefined).success };
  if (description !== undefined) parameter.description = description;
  // `?status=waiting,answered`: one comma-separated value.
  if (schema.type === 'array') Object.assign(parameter, { style: 'form', explode: false });
  parameter.schema = schema;
  return parameter;
}

function headerParameter(name: string, schema: z.ZodType): Json {
  const { description, ...rest } = withoutDialect(z.toJSONSchema(schema, GENERATION_OPTIONS) as Json);
  return { name, in: 'header', required: true, description, schema: rest };
}

function response(value: V1Response, names: Map<z.ZodType, string>): Json {
  const headers: Json = {};
  for (const header of [...value.headers, 'X-Request-Id'] as const) {
    headers[header] = { $ref: `#/components/headers/${componentName(header)}` };
  }
  return {
    description: value.description,
    headers,
    content: { [value.contentType ?? 'application/json']: { schema: schemaOf(value.schema, names) } },
  };
}

function operation(route: V1Route, names: Map<z.ZodType, string>): Json {
  const parameters: Json[] = [];
  if (route.id) parameters.push({ name: 'id', in: 'path', required: true, description: route.id, schema: { type: 'string' } });
  if (route.query) {
    for (const [name, field] of Object.entries(route.query.shape)) parameters.push(queryParameter(name, field as z.ZodType));
  }
  if (route.ifMatch) parameters.push({ $ref: '#/components/parameters/IfMatch' });
  if (route.idempotencyKey) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const op: Json = { operationId: route.operationId, summary: route.summary };
  if (!route.authenticated) op.security = [];
  if (parameters.length > 0) op.parameters = parameters;
  if (route.body) {
    op.requestBody = {
      required: route.body.required,
      content: { 'application/json': { schema: schemaOf(route.body.schema, names) } },
    };
  }
  const responses: Json = {};
  for (const [status, value] of Object.entries(route.responses)) responses[status] = response(value, names);
  op.responses = responses;
  return op;
}

let generated: { components: Json; paths: Json } | undefined;

/** Components and paths do not depend on the server: generated once per process, frozen. */
function generateOnce(): { components: Json; paths: Json } {
  if (generated) return generated;
  const { schemas, names } = generateComponents();
  const paths: Record<string, Json> = {};
  for (const route of V1_ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation(route, names);
  }
  const headers: Json = {};
  for (const [name, header] of Object.entries(HEADERS)) headers[componentName(name)] = header;
  const components = {
    securitySchemes: {
      apiKey: { type: 'http', scheme: 'bearer', description: 'A workspace API key (sess_…): Authorization: Bearer <key>.' },
    },
    parameters: {
      IdempotencyKey: headerParameter('Idempotency-Key', IdempotencyKeySchema),
      IfMatch: headerParameter('If-Match', IfMatchSchema),
    },
    headers,
    schemas,
  };
  generated = deepFreeze({ components, paths });
  return generated;
}

/** The OpenAPI 3.1 document of /v1 for a server at `publicUrl`, as `GET /v1/openapi.json` serves it. */
export function buildV1OpenApiDocument(publicUrl: string): Json {
  const { components, paths } = generateOnce();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sess runtime API',
      version: '1',
      description:
        'Create a form behind a link, wait for a person’s answer, show the next step or complete. Every authenticated response carries Sess-Workspace-Id and Cache-Control: no-store; every write needs Idempotency-Key; publish and complete need If-Match.',
    },
    servers: [{ url: publicUrl }],
    security: [{ apiKey: [] }],
    components,
    paths,
  };
}
