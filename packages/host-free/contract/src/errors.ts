import { ERROR_REGISTRY, type ErrorCode } from '@sess/core';
import { z } from 'zod';
import { SESSION_STATES } from './states/session-states.ts';

/** Every code Sess answers with, from the one registry (docs/errors.md). */
export const ERROR_CODES = Object.keys(ERROR_REGISTRY) as [ErrorCode, ...ErrorCode[]];

export const ErrorCodeSchema = z.enum(ERROR_CODES).describe('Stable code (docs/errors.md). Branch on it, never on the message.');

const field = z.string().describe('RFC 6901 JSON pointer into the request ("" is the whole body; a query parameter is /<name>).');
const limit = z.number().describe('The limit the value is over (characters, bytes, seconds or a count).');
const length = z.number().describe('The length or value that was given.');

/**
 * An error as `/v1` answers it: `{ error: { code, message, retryable, …details }, requestId? }`.
 * The details are code-specific facts a client may branch on.
 */
export const ErrorBodySchema = z.object({
  code: ErrorCodeSchema,
  message: z.string().describe('What went wrong and how to fix it, for a person or an agent to read.'),
  retryable: z.boolean().describe('True when the same request may succeed later (a 503, a 429).'),
  field: field.optional(),
  limit: limit.optional(),
  length: length.optional(),
  reason: z.string().optional().describe('A finer cause, such as the code the runtime refused a create with.'),
  currentRevision: z.int().min(1).optional().describe('REVISION_MISMATCH, RESPONSE_MISMATCH: the revision the session is at.'),
  header: z.string().optional().describe('The request header at fault (Idempotency-Key, If-Match, Content-Type).'),
  state: z
    .enum([...SESSION_STATES])
    .optional()
    .describe('INVALID_STATE: the state that refused the request.'),
  kind: z.literal('ask').optional().describe('INVALID_STATE: the session is an Ask.'),
  plan: z.string().optional().describe('PLAN_LIMIT_REACHED: the workspace plan whose limit was reached.'),
  sessionId: z.string().optional().describe('NOT_FOUND: the session asked for.'),
  askId: z.string().optional().describe('NOT_FOUND: the Ask asked for.'),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ErrorResponseSchema = z
  .object({
    error: ErrorBodySchema,
    requestId: z.string().optional().describe('The X-Request-Id of the request, to quote when asking for help.'),
  })
  .describe('Every /v1 error.');
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/**
 * A tool error's `structuredContent.error` (a result with `isError: true`): the code, the message,
 * whether a retry can help, and the pointer, limit, length or reason where the code has them.
 */
export const ToolErrorBodySchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  retryable: z.boolean(),
  field: field.optional(),
  limit: limit.optional(),
  length: length.optional(),
  reason: z.string().optional(),
});
export type ToolErrorBody = z.infer<typeof ToolErrorBodySchema>;

/** `structuredContent` of a failed tool call. */
export const ToolErrorSchema = z.strictObject({ error: ToolErrorBodySchema });
export type ToolError = z.infer<typeof ToolErrorSchema>;
