import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { LIST_STATUSES, MAX_WAIT_MS } from '@sess/interactions';
import { interactionJsonSchema, type JsonSchemaObject, sessAskInputSchema, sessRequestInputSchema } from '@sess/surface';

/*
 * The tools' JSON Schemas, built once per process and shared by every request. Input schemas of
 * the create tools come from @sess/surface (one source of truth); the small ones are written
 * here. The SDK receives each as a Standard Schema whose JSON form is the cached object and whose
 * `validate` passes the value through: the tool validates its own arguments, because only it can
 * answer the seed's INVALID_ARGUMENTS with a JSON pointer, a limit and a length.
 */

const HANDLE = {
  type: 'string',
  description: 'The handle sess_request or sess_ask returned (interaction.handle). Example: "hdl_3mz5…"',
  minLength: 1,
  maxLength: 64,
} as const;

const REVISION = (what: string) =>
  ({ type: 'integer', minimum: 1, description: `${what} (interaction.revision). Example: 1` }) as const;

const RESPONSE_EVENT_ID = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'The verified answer of expected_revision: response.eventId from sess_response. Example: "evt_7q…"',
} as const;

function closedObject(properties: Record<string, unknown>, required: string[], description?: string): JsonSchemaObject {
  return deepFreeze({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    ...(description ? { description } : {}),
  }) as JsonSchemaObject;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function withoutSchemaKeyword(schema: JsonSchemaObject): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

export const SESS_RESPONSE_INPUT = closedObject(
  {
    handle: HANDLE,
    revision: REVISION('The revision whose answer you want'),
    wait_ms: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_WAIT_MS,
      description: `How long to wait for an answer, in milliseconds: default and maximum ${MAX_WAIT_MS}; 0 reads once. Leave it out when calling again.`,
    },
  },
  ['handle', 'revision'],
);

export const SESS_COMPLETE_INPUT = closedObject(
  {
    handle: HANDLE,
    expected_revision: REVISION('The revision whose verified answer you are finishing with'),
    response_event_id: RESPONSE_EVENT_ID,
  },
  ['handle', 'expected_revision', 'response_event_id'],
);

export const SESS_CANCEL_INPUT = closedObject({ handle: HANDLE }, ['handle']);

export const SESS_LIST_INPUT = closedObject(
  {
    status: {
      type: 'string',
      enum: [...LIST_STATUSES],
      description:
        'Which interactions: "open" (default: everything unfinished), "waiting", "answered", "blocked", "completed", "expired", "cancelled" or "all".',
    },
    cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'nextCursor from the previous page.' },
    limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Most interactions per page, default 20.' },
  },
  [],
);

let publishInput: JsonSchemaObject | undefined;
/** sess_publish: the handle, the If-Match revision, the answer it follows, and the next interaction. */
export function sessPublishInputSchema(): JsonSchemaObject {
  publishInput ??= closedObject(
    {
      handle: HANDLE,
      expected_revision: REVISION('The revision whose verified answer this step follows'),
      response_event_id: RESPONSE_EVENT_ID,
      interaction: withoutSchemaKeyword(interactionJsonSchema()),
    },
    ['handle', 'expected_revision', 'response_event_id', 'interaction'],
  );
  return publishInput;
}

const STATES = ['waiting', 'needs_resume', 'answered', 'completed', 'expired', 'closed', 'cancelled'];

const ANSWER_PROPERTIES = {
  eventId: { type: 'string', description: 'The answer event; pass it as response_event_id.' },
  actionId: { type: 'string', description: 'The button the person chose.' },
  values: { type: 'object', description: 'The answers by field name. Untrusted human input: validate before acting.' },
  verified: { type: 'boolean', const: true },
  actorAssurance: { type: 'string', const: 'link_holder' },
  answeredAt: { type: 'string', format: 'date-time' },
  receipt: { type: 'string', description: 'The signed receipt (compact JWS) the answer was verified with.' },
} as const;

/** The result of every tool but sess_list: `{ interaction }`. */
export const INTERACTION_OUTPUT = closedObject(
  {
    interaction: {
      type: 'object',
      properties: {
        handle: { type: 'string' },
        revision: { type: 'integer', minimum: 1 },
        state: { type: 'string', enum: STATES },
        humanUrl: { type: 'string', format: 'uri', description: 'The private link; only sess_request and sess_ask return it.' },
        expiresAt: { type: 'string', format: 'date-time' },
        response: {
          type: 'object',
          properties: ANSWER_PROPERTIES,
          required: ['eventId', 'actionId', 'values', 'verified', 'actorAssurance'],
        },
        ask: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            open: { type: 'boolean' },
            counts: {
              type: 'object',
              properties: { started: { type: 'integer' }, answered: { type: 'integer' }, max: { type: 'integer' } },
              required: ['started', 'answered', 'max'],
            },
            answers: {
              type: 'array',
              items: {
                type: 'object',
                properties: { ...ANSWER_PROPERTIES, respondentId: { type: 'string' }, name: { type: 'string' } },
                required: ['eventId', 'actionId', 'values', 'verified', 'actorAssurance', 'respondentId'],
              },
            },
          },
          required: ['id', 'open', 'counts'],
        },
      },
      required: ['handle', 'revision', 'state'],
    },
  },
  ['interaction'],
);

/** sess_list's result. */
export const LIST_OUTPUT = closedObject(
  {
    interactions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          handle: { type: 'string' },
          kind: { type: 'string', enum: ['interaction', 'ask'] },
          title: { type: 'string' },
          state: { type: 'string' },
          revision: { type: 'integer' },
          expiresAt: { type: 'string', format: 'date-time' },
          answerReady: { type: 'boolean', description: 'An answer is waiting: call sess_response to read and verify it.' },
        },
        required: ['handle', 'kind', 'title', 'state', 'revision'],
      },
    },
    nextCursor: { type: 'string' },
  },
  ['interactions'],
);

/**
 * A Standard Schema whose JSON Schema is `json` (returned as is, never converted again) and
 * whose validation passes every value through to the tool.
 */
export function passThroughSchema(
  json: JsonSchemaObject,
): StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>> {
  const standard = {
    version: 1 as const,
    vendor: 'sess',
    validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
    jsonSchema: { input: () => json as Record<string, unknown>, output: () => json as Record<string, unknown> },
  };
  return { '~standard': standard } as unknown as StandardSchemaWithJSON<Record<string, unknown>, Record<string, unknown>>;
}

/** The JSON Schemas of the create tools, from @sess/surface. */
export { sessAskInputSchema, sessRequestInputSchema };
