import {
  AskArgumentsSchema,
  RequestArgumentsSchema,
  RespondentsSchema,
  SESS_ASK_EXAMPLE,
  STRUCTURE_LIMITS,
  SurfaceSchema,
} from '@sess/surface';
import { z } from 'zod';
import { MAX_WAIT_MS, responseEventIdSchema } from '../common.ts';
import { SessionListStatusSchema } from '../states/session-states.ts';

/*
 * What /v1 takes. The bodies are the tools' own arguments, from @sess/surface (the form model is
 * defined there once); the runtime validates them with @sess/surface's checkers, which answer
 * with a JSON pointer, a limit and a length. Every body is closed: an unknown field is refused.
 */

/** `POST /v1/sessions`: sess_request's arguments, `{ interaction, expires_in?, answer_in_chat? }`. */
export const CreateSessionRequestSchema = RequestArgumentsSchema;
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;

/** An Ask for ten people, the one good call of sess_ask with `respondents`. */
export const CREATE_ASK_EXAMPLE = Object.freeze({ ...SESS_ASK_EXAMPLE, respondents: { max: 10 } });

/**
 * `POST /v1/asks`: sess_ask's arguments, with `respondents` required (without it, create a
 * session). `answer_in_chat` may only be false: an Ask is never answered in the chat.
 */
export const CreateAskRequestSchema = AskArgumentsSchema.extend({ respondents: RespondentsSchema })
  .describe(
    `An Ask: a short question with up to ${STRUCTURE_LIMITS.askFields} simple fields for many people through one link (respondents.max). Lengths are Unicode code points; nothing is truncated.`,
  )
  .meta({ examples: [CREATE_ASK_EXAMPLE] });
export type CreateAskRequest = z.infer<typeof CreateAskRequestSchema>;

/** `response_event_id`: the answer event a publish or complete acts on. */
export const ResponseEventIdSchema = responseEventIdSchema(
  'The eventId of the answer of the If-Match revision, as the read returned it (evt_…).',
);

/** `POST /v1/sessions/:id/publish` (with `If-Match: "<revision>"`). */
export const PublishSessionRequestSchema = z
  .strictObject({ response_event_id: ResponseEventIdSchema, interaction: SurfaceSchema })
  .describe('The next Surface, shown at revision + 1 after the answer named.');
export type PublishSessionRequest = z.infer<typeof PublishSessionRequestSchema>;

/** `POST /v1/sessions/:id/complete` (with `If-Match: "<revision>"`). */
export const CompleteSessionRequestSchema = z
  .strictObject({ response_event_id: ResponseEventIdSchema })
  .describe('Finish with the answer named: the link closes, the answer is kept.');
export type CompleteSessionRequest = z.infer<typeof CompleteSessionRequestSchema>;

/** `POST /v1/sessions/:id/withdraw`: `{}`, or no body at all. */
export const WithdrawSessionRequestSchema = z.strictObject({}).describe('Nothing: {} or no body.');
export type WithdrawSessionRequest = z.infer<typeof WithdrawSessionRequestSchema>;

/** The query of `GET /v1/sessions/:id`. Unknown parameters are refused. */
export const ReadSessionQuerySchema = z.strictObject({
  revision: z
    .int()
    .min(1)
    .optional()
    .describe('The revision to read (default the current one); an older one returns its own answer in response.'),
  wait_ms: z
    .int()
    .min(0)
    .max(MAX_WAIT_MS)
    .optional()
    .describe(
      `Wait up to this long (milliseconds, at most ${MAX_WAIT_MS}) for the revision to be answered, completed, expired or withdrawn.`,
    ),
});
export type ReadSessionQuery = z.infer<typeof ReadSessionQuerySchema>;

/** The query of `GET /v1/sessions`. `status` is comma-separated on the wire (`?status=waiting,answered`). */
export const ListSessionsQuerySchema = z.strictObject({
  status: z.array(SessionListStatusSchema).optional().describe('Only these statuses (any of them); default all.'),
  kind: z.enum(['interaction', 'ask']).optional().describe('Only interactions, or only Asks.'),
  limit: z.int().min(1).max(100).optional().describe('Most rows per page, default 50.'),
  cursor: z.string().min(1).optional().describe('nextCursor of the previous page.'),
});
export type ListSessionsQuery = z.infer<typeof ListSessionsQuerySchema>;

/** `Idempotency-Key`: 1–255 visible ASCII characters; a fresh UUID per request is ideal. */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/)
  .describe(
    'Required on every write: a fresh key (a UUID) per request. An identical repeat returns the stored result; the same key with another request is 409 IDEMPOTENCY_KEY_REUSED.',
  );

/** What `If-Match` takes: a revision, quoted as an ETag (`"3"`) or bare (`3`). */
const IF_MATCH_REVISION = /^\s*(?:"\d{1,9}"|\d{1,9})\s*$/;

/** The revision an `If-Match` value names (a whole number from 1), or undefined when it names none. */
export function parseIfMatchRevision(value: string): number | undefined {
  if (!IF_MATCH_REVISION.test(value)) return undefined;
  const revision = Number(value.trim().replaceAll('"', ''));
  return revision >= 1 ? revision : undefined;
}

/** `If-Match`: the revision acted on, as the `ETag` of a read gives it (`"3"`; a bare `3` is accepted). */
export const IfMatchSchema = z
  .string()
  .regex(IF_MATCH_REVISION)
  .describe('The revision you act on, as the ETag of your read ("3"). A stale one is 409 REVISION_MISMATCH.')
  .meta({ examples: ['"1"'] });
