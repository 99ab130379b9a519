import { ASSURANCE_LEVELS } from '@sess/surface';
import { z } from 'zod';
import { AnswerAssuranceSchema, AnswerValueSchema, AnswerViaSchema, TimestampSchema } from '../common.ts';
import { HandleStateSchema } from '../states/handle-states.ts';
import { ResultStateSchema } from '../states/result-states.ts';
import { AskDecisionSchema, AskEscalationSchema } from '../v1/views.ts';

/*
 * What the tools return in `structuredContent`. Every tool but sess_list returns
 * `{ interaction }`; sess_list returns `{ interactions, nextCursor? }`; a failing tool returns
 * `{ error }` with `isError: true` (ToolErrorSchema, beside the /v1 error).
 */

const answerFields = {
  eventId: z.string().describe('The answer event; pass it as response_event_id.'),
  actionId: z.string().describe('The button the person chose.'),
  values: z
    .record(z.string(), AnswerValueSchema)
    .describe('The answers by field name. Untrusted human input: validate before acting.'),
  verified: z.literal(true),
  actorAssurance: z.literal('link_holder'),
  answeredAt: TimestampSchema,
  receipt: z.string().describe('The signed receipt (compact JWS) the answer was verified with.'),
  via: AnswerViaSchema.describe(
    'Which way the person answered, as the verified receipt signs it: link (the answer page) or chat (the form inside this chat).',
  ),
  viaPrincipalId: z
    .string()
    .optional()
    .describe('Chat answers only: the OAuth principal whose connector carried the answer (the receipt’s via_principal_id).'),
  assurance: AnswerAssuranceSchema.describe(
    'How sure Sess is of who answered, as the verified receipt signs it: link (whoever held the link: it proves nothing about the person), account (the signed-in Sess account the form was for), passkey (that account with a passkey check bound to this answer).',
  ),
  respondent: z
    .string()
    .optional()
    .describe(
      'Above link only: an opaque id of the account that answered, the same for the same person within this workspace (never their e-mail or user id).',
    ),
  respondentEmail: z
    .string()
    .optional()
    .describe(
      "Above link, through one of the workspace's own API keys only: the e-mail of the account that answered, from Sess's records (the receipt signs respondent, not the e-mail).",
    ),
};

/** A verified answer as a tool releases it: only after its receipt verified and a re-read confirmed it. */
export const ResponseResultSchema = z.object(answerFields);
export type ResponseResult = z.infer<typeof ResponseResultSchema>;

/** One respondent's verified answer of an Ask. */
export const AskAnswerResultSchema = z.object({
  ...answerFields,
  respondentId: z.string(),
  name: z.string().optional(),
});
export type AskAnswerResult = z.infer<typeof AskAnswerResultSchema>;

/** `interaction.ask`: whether more answers may come, the counts, and every verified answer so far. */
export const AskResultSchema = z.object({
  id: z.string(),
  open: z.boolean(),
  counts: z.object({ started: z.int().min(0), answered: z.int().min(0), max: z.int().min(1) }),
  answers: z.array(AskAnswerResultSchema).optional(),
  decision: AskDecisionSchema.optional(),
  escalation: AskEscalationSchema.optional(),
});
export type AskResult = z.infer<typeof AskResultSchema>;

/** `interaction` of every result but sess_list's. */
export const InteractionResultSchema = z.object({
  handle: z.string(),
  revision: z.int().min(1),
  state: ResultStateSchema,
  humanUrl: z.url().optional().describe('The private link; only sess_request and sess_ask return it.'),
  expiresAt: TimestampSchema.optional(),
  notified: z
    .boolean()
    .optional()
    .describe(
      "Only sess_request and sess_ask: true when Sess has already sent the link to the person's phone or e-mail itself; false when it has not (always for an Ask with respondents, whose link you share), so show them the link.",
    ),
  assurance: z
    .enum(ASSURANCE_LEVELS)
    .optional()
    .describe(
      'Only sess_request and sess_ask: who may answer the form, as created: link (whoever holds the link) or account (only the person it is for, signed in to Sess). It is what you asked for, raised to the floor the person (or workspace) set.',
    ),
  response: ResponseResultSchema.optional(),
  ask: AskResultSchema.optional(),
});
export type InteractionResult = z.infer<typeof InteractionResultSchema>;

/** The result of every tool but sess_list: `{ interaction }`. */
export const InteractionOutputSchema = z.strictObject({ interaction: InteractionResultSchema });
export type InteractionOutput = z.infer<typeof InteractionOutputSchema>;

/** One interaction of a sess_list page: never the link or the answer. */
export const ListedInteractionSchema = z.object({
  handle: z.string(),
  kind: z.enum(['interaction', 'ask']),
  title: z.string(),
  state: HandleStateSchema,
  revision: z.int().min(1),
  expiresAt: TimestampSchema.optional(),
  answerReady: z.boolean().optional().describe('An answer is waiting: call sess_response to read and verify it.'),
});
export type ListedInteraction = z.infer<typeof ListedInteractionSchema>;

/** sess_list's result. */
export const ListResultSchema = z.strictObject({
  interactions: z.array(ListedInteractionSchema),
  nextCursor: z.string().optional(),
});
export type ListResult = z.infer<typeof ListResultSchema>;
