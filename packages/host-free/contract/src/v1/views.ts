import { DECISION_OUTCOMES, DECISION_RULES } from '@sess/core';
import { ASSURANCE_LEVELS, STRUCTURE_LIMITS } from '@sess/surface';
import { z } from 'zod';
import { AnswerAssuranceSchema, AnswerValueSchema, AnswerViaSchema, idSchema, Sha256Schema, TimestampSchema } from '../common.ts';
import { AskStateSchema, SessionListStatusSchema, SessionStateSchema } from '../states/session-states.ts';

/*
 * What /v1 answers, field by field as it is on the wire. Objects are open (`z.object`): a client
 * keeps working when a later server adds a field; the contract test checks that nothing the
 * server sends today is left out (parsing a real response changes nothing).
 */

const sessionId = idSchema('session', 'The session (ses_…).');
const createdAt = TimestampSchema.describe('When it was created.');
const expiresAt = TimestampSchema.describe('When the link stops taking answers, as created.');
const horizonAt = TimestampSchema.nullable().describe(
  'When an extendable link is over for good (its deadline can move up to here); null when the link cannot be extended.',
);
const extendable = z.boolean().describe('True when the person may ask for more time (links of 20 hours or less).');
const surfaceSha256 = Sha256Schema.describe('SHA-256 (hex) of the current Surface, as the receipt names it.');
const humanUrl = z.url().describe('The private link (PUBLIC_URL/s/<token>): a bearer capability, shown only here, never again.');

/** An accepted answer as the agent receives it, with everything needed to verify its receipt. */
export const AnswerViewSchema = z
  .object({
    eventId: idSchema('answer', 'The answer event (evt_…), the receipt’s event_id; pass it as response_event_id.'),
    revision: z.int().min(1).describe('The revision answered.'),
    actionId: z.string().describe('The button the person chose.'),
    values: z
      .record(z.string(), AnswerValueSchema)
      .describe('The answers by field name. Untrusted human input: validate before acting.'),
    answeredAt: TimestampSchema.describe('When the answer was accepted.'),
    surfaceSha256: Sha256Schema.describe('SHA-256 (hex) of the exact Surface the person answered.'),
    answerSha256: Sha256Schema.describe('SHA-256 (hex) of { actionId, values }.'),
    receipt: z.string().describe('Compact JWS (ES256) signed by the server; verify against /.well-known/jwks.json.'),
    respondentId: idSchema('respondent', 'Ask answers only: the respondent (rsp_…).').optional(),
    respondentName: z.string().nullable().optional().describe('Ask answers with respondents.name only: the name they gave.'),
    via: AnswerViaSchema.optional().describe(
      'Which way the answer came, as its receipt signs it: link (the answer page) or chat (the form inside the agent’s chat). Sent on every answer; an answer without it (from an older server) came through the link.',
    ),
    viaPrincipalId: z
      .string()
      .optional()
      .describe('Chat answers only: the OAuth principal whose connector carried the answer, as the receipt’s via_principal_id.'),
    assurance: AnswerAssuranceSchema.optional().describe(
      'How sure Sess was of who answered, as its receipt signs it: link (whoever held the link), account (the signed-in account the form was for), passkey (that account with a passkey check). Sent on every answer; an answer without it (from an older server) is link.',
    ),
    respondent: z
      .string()
      .optional()
      .describe(
        'Answers above link only: the opaque id of the account that answered, as the receipt’s respondent (stable within the workspace, never the e-mail or user id).',
      ),
    respondentEmail: z
      .string()
      .optional()
      .describe(
        'Answers above link, read with one of the workspace’s own API keys only: the e-mail of the account that answered, from Sess’s records. The receipt does not sign it (it signs respondent).',
      ),
  })
  .describe('An accepted answer with its signed receipt.');
export type AnswerView = z.infer<typeof AnswerViewSchema>;

/** An interaction as the agent reads it (`GET /v1/sessions/:id`, and the result of publish and complete). */
export const SessionViewSchema = z
  .object({
    sessionId,
    kind: z.literal('interaction'),
    revision: z.int().min(1).describe('The current revision.'),
    state: SessionStateSchema.describe('The state of the current revision.'),
    createdAt,
    expiresAt,
    deadlineAt: TimestampSchema.describe('The current deadline (later than expiresAt after the person asked for more time).'),
    horizonAt,
    extendable,
    surfaceSha256,
    completedAt: TimestampSchema.nullable(),
    withdrawnAt: TimestampSchema.nullable(),
    response: AnswerViewSchema.nullable().describe(
      'The answer of the revision read (the current one unless ?revision= asked for an older one); null before an answer.',
    ),
  })
  .describe('An interaction (one link, one person) at its current revision.');
export type SessionView = z.infer<typeof SessionViewSchema>;

/** The level a new form got: the one asked for, raised to its person's or workspace's floor (issue 37). */
const createdAssurance = z
  .enum(ASSURANCE_LEVELS)
  .default('link')
  .describe(
    'Who may answer, as the form was created: link (whoever holds the link) or account (the person it is for, signed in). The assurance asked for, raised to the floor its person or workspace set. A server older than this field leaves it out: read that as link.',
  );

/** A new interaction (`POST /v1/sessions`): the only response that carries the link. */
export const CreatedSessionSchema = z
  .object({
    sessionId,
    kind: z.literal('interaction'),
    revision: z.literal(1),
    state: z.literal('waiting'),
    humanUrl,
    createdAt,
    expiresAt,
    horizonAt,
    extendable,
    surfaceSha256,
    answerInChat: z
      .boolean()
      .default(true)
      .describe(
        "Whether a host that shows apps may render the form in the agent's chat for the person there to answer (answer_in_chat as created). A server older than this field leaves it out: read that as true.",
      ),
    assurance: createdAssurance,
    notified: z
      .boolean()
      .default(false)
      .describe(
        "True when Sess will itself send the link to the person (the workspace's owners who chose to be told of forms made with an API key, on their phone or by e-mail); false when nobody is told, so show them the link. A server older than this field leaves it out: read that as false.",
      ),
  })
  .describe('A new interaction: show the person humanUrl.');
export type CreatedSession = z.infer<typeof CreatedSessionSchema>;

const askId = idSchema('ask', 'The Ask (ask_…).');

/** A new Ask (`POST /v1/asks`): one shared link, many respondents. */
export const CreatedAskSchema = z
  .object({
    askId,
    sessionId: askId.describe('The same id: an Ask is a session of kind ask.'),
    kind: z.literal('ask'),
    revision: z.literal(1),
    state: z.literal('waiting'),
    humanUrl: humanUrl.describe('The shared link, shown once: everyone who should answer opens it and gets their own page.'),
    createdAt,
    expiresAt,
    surfaceSha256,
    assurance: createdAssurance,
    ask: z.object({
      id: askId,
      max: z.int().min(1).describe('How many people may answer.'),
      name: z.boolean().describe('Whether each person is asked for their name.'),
      respondentExpiresIn: z
        .int()
        .min(STRUCTURE_LIMITS.minExpiresIn)
        .nullable()
        .describe('Seconds each person has once they start; null: until the Ask ends.'),
      decide: z.enum(DECISION_RULES).optional().describe('An Ask that decides: its rule (respondents.decide), fixed now.'),
      quorum: z.int().min(1).optional().describe('With decide quorum: how many approvals decide.'),
    }),
  })
  .describe('A new Ask: share humanUrl with everyone who should answer.');
export type CreatedAsk = z.infer<typeof CreatedAskSchema>;

/** The outcome of an Ask that decides, as counted under the lock that accepted each answer. */
export const AskDecisionSchema = z
  .object({
    rule: z.enum(DECISION_RULES).describe('The rule fixed at creation: any, all or quorum.'),
    quorum: z.int().min(1).nullable().describe('With quorum: how many approvals decide; null for any and all.'),
    outcome: z
      .enum(DECISION_OUTCOMES)
      .describe(
        'pending while answers may still decide; approved or rejected from the deciding answer on; undecided when the Ask ended (expired or withdrawn) first. A timeout is never consent: do not proceed on undecided.',
      ),
    approved: z.int().min(0).describe('Accepted Approve answers.'),
    rejected: z.int().min(0).describe('Accepted Reject answers.'),
    approveAt: z.int().min(1).describe('The Approve answers that decide approved.'),
    rejectAt: z.int().min(1).describe('The Reject answers that decide rejected.'),
    decidedAt: TimestampSchema.nullable().describe('When the deciding answer was accepted; null until then.'),
    receipt: z
      .string()
      .optional()
      .describe(
        'Once decided: the decision receipt, a compact JWS (ES256, typ sess-decision+jwt) naming every answer it counts; verify it with client.receipts.verifyDecision.',
      ),
  })
  .describe('The decision of an Ask made with respondents.decide.');
export type AskDecision = z.infer<typeof AskDecisionSchema>;

/** An Ask as the agent reads it (`GET /v1/asks/:id`), read once, without waiting. */
export const AskViewSchema = z
  .object({
    askId,
    kind: z.literal('ask'),
    state: AskStateSchema.describe(
      'waiting while answers may still come; closed once none can (expired, max answered, or decided); withdrawn.',
    ),
    open: z.boolean().describe('True while the state is waiting.'),
    counts: z.object({
      started: z.int().min(0).describe('People who started their page.'),
      answered: z.int().min(0).describe('People whose answer was accepted.'),
      max: z.int().min(1).describe('How many people may answer.'),
    }),
    createdAt,
    expiresAt,
    surfaceSha256,
    answers: z.array(AnswerViewSchema).describe('Each respondent’s answer with its receipt, oldest first.'),
    decision: AskDecisionSchema.optional().describe('Only an Ask made with respondents.decide: its outcome and counts.'),
  })
  .describe('An Ask with every answer so far.');
export type AskView = z.infer<typeof AskViewSchema>;

/** The outcome of `POST /v1/sessions/:id/withdraw` (the same on every repeat). */
export const WithdrawnSessionSchema = z
  .object({
    sessionId: z.string().describe('The interaction (ses_…) or Ask (ask_…) withdrawn.'),
    kind: z.enum(['interaction', 'ask']),
    state: z.literal('withdrawn'),
    revision: z.int().min(1),
    withdrawnAt: TimestampSchema.describe('When it was first withdrawn.'),
  })
  .describe('A withdrawn session or Ask.');
export type WithdrawnSession = z.infer<typeof WithdrawnSessionSchema>;

/** One row of `GET /v1/sessions`: enough to decide what to do next, never the link or answer data. */
export const SessionSummarySchema = z.object({
  sessionId: z.string().describe('The interaction (ses_…) or Ask (ask_…).'),
  kind: z.enum(['interaction', 'ask']),
  status: SessionListStatusSchema.describe('Its state right now, as a read would say it.'),
  revision: z.int().min(1),
  title: z.string().describe('The current Surface’s title (what the person is asked).'),
  createdAt,
  expiresAt,
  deadlineAt: TimestampSchema,
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** A page of `GET /v1/sessions`, newest first. */
export const SessionListSchema = z
  .object({
    sessions: z.array(SessionSummarySchema),
    nextCursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
  })
  .describe('A page of sessions and Asks, newest first.');
export type SessionList = z.infer<typeof SessionListSchema>;

/** One published receipt verification key (a P-256 public key). */
export const PublishedJwkSchema = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().regex(/^[A-Za-z0-9_-]+$/),
  y: z.string().regex(/^[A-Za-z0-9_-]+$/),
  kid: z.string().min(1),
  alg: z.literal('ES256'),
  use: z.literal('sig'),
});

/** `GET /.well-known/jwks.json`: the active receipt key first, then the previous one. */
export const JwksSchema = z
  .object({ keys: z.array(PublishedJwkSchema) })
  .describe('The receipt verification keys (RFC 7517 JWK Set).');
export type JwksDocument = z.infer<typeof JwksSchema>;
