import { AskArgumentsSchema, RequestArgumentsSchema, SurfaceSchema } from '@sess/surface';
import { z } from 'zod';
import { MAX_WAIT_MS, responseEventIdSchema } from '../common.ts';

/*
 * The tools' arguments. sess_ask's and sess_request's are the form model's own (@sess/surface);
 * the small tools' are here. They describe what a tool takes for tools/list; each tool still
 * checks its own arguments, because only it can answer INVALID_ARGUMENTS with the seed's JSON
 * pointer, limit and length.
 */

/** sess_list's `status` filters. `open` is every unfinished interaction. */
export const INTERACTION_LIST_STATUSES = [
  'open',
  'waiting',
  'answered',
  'blocked',
  'completed',
  'expired',
  'cancelled',
  'all',
] as const;
export type InteractionListStatus = (typeof INTERACTION_LIST_STATUSES)[number];

const HandleSchema = z
  .string()
  .min(1)
  .max(64)
  .describe('The handle sess_request or sess_ask returned (interaction.handle). Example: "hdl_3mz5…"');

const revision = (what: string) => z.int().min(1).describe(`${what} (interaction.revision). Example: 1`);

const ResponseEventIdSchema = responseEventIdSchema(
  'The verified answer of expected_revision: response.eventId from sess_response. Example: "evt_7q…"',
);

/** sess_ask: a question and 1–12 simple fields (optionally `respondents`: an Ask). */
export const SessAskInputSchema = AskArgumentsSchema;
export type SessAskInput = z.infer<typeof SessAskInputSchema>;

/** sess_request: the full interaction and an optional lifetime. */
export const SessRequestInputSchema = RequestArgumentsSchema;
export type SessRequestInput = z.infer<typeof SessRequestInputSchema>;

/** sess_response: the handle, the revision whose answer is wanted, and how long to wait. */
export const SessResponseInputSchema = z.strictObject({
  handle: HandleSchema,
  revision: revision('The revision whose answer you want'),
  wait_ms: z
    .int()
    .min(0)
    .max(MAX_WAIT_MS)
    .optional()
    .describe(
      `How long to wait for an answer, in milliseconds: default and maximum ${MAX_WAIT_MS}; 0 reads once. Leave it out when calling again.`,
    ),
});
export type SessResponseInput = z.infer<typeof SessResponseInputSchema>;

/** sess_publish: the handle, the If-Match revision, the answer it follows, and the next interaction. */
export const SessPublishInputSchema = z.strictObject({
  handle: HandleSchema,
  expected_revision: revision('The revision whose verified answer this step follows'),
  response_event_id: ResponseEventIdSchema,
  interaction: SurfaceSchema,
});
export type SessPublishInput = z.infer<typeof SessPublishInputSchema>;

/** sess_complete: the handle, the revision finished with, and its verified answer. */
export const SessCompleteInputSchema = z.strictObject({
  handle: HandleSchema,
  expected_revision: revision('The revision whose verified answer you are finishing with'),
  response_event_id: ResponseEventIdSchema,
});
export type SessCompleteInput = z.infer<typeof SessCompleteInputSchema>;

/** sess_list: a status filter and a page. */
export const SessListInputSchema = z.strictObject({
  status: z
    .enum(INTERACTION_LIST_STATUSES)
    .optional()
    .describe(
      'Which interactions: "open" (default: everything unfinished), "waiting", "answered", "blocked", "completed", "expired", "cancelled" or "all".',
    ),
  cursor: z.string().min(1).max(200).optional().describe('nextCursor from the previous page.'),
  limit: z.int().min(1).max(50).optional().describe('Most interactions per page, default 20.'),
});
export type SessListInput = z.infer<typeof SessListInputSchema>;

/** sess_cancel: the handle to withdraw. */
export const SessCancelInputSchema = z.strictObject({ handle: HandleSchema });
export type SessCancelInput = z.infer<typeof SessCancelInputSchema>;
