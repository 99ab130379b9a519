import { z } from 'zod';
import { AnswerAssuranceSchema, idSchema, Sha256Schema, TimestampSchema } from './common.ts';

/*
 * The interaction events: what happened to an interaction or an Ask, in order, as the timeline,
 * the export and the webhooks carry them. An event names no form text, answer value, link or
 * address; a respondent is an opaque id.
 */

/** Every event type, in the order a form usually meets them. */
export const EVENT_TYPES = [
  'created',
  'notified',
  'opened',
  'started',
  'answered',
  'published',
  'extended',
  'lapsed',
  'completed',
  'withdrawn',
  'expired',
  'closed',
] as const;
export const EventTypeSchema = z
  .enum(EVENT_TYPES)
  .describe(
    [
      'created: the form was made;',
      'notified: its person was told (channel push or email; no address);',
      'opened: the link was first opened in a browser;',
      'started: an Ask respondent took a place;',
      'answered: an answer was accepted (responseEventId = its receipt’s event_id);',
      'published: the agent showed the next revision;',
      'extended: the person asked for more time;',
      'lapsed: an extendable link passed its deadline (more time may still be asked);',
      'completed / withdrawn: the agent finished or withdrew it;',
      'expired: an interaction’s link ended unanswered;',
      'closed: an Ask filled up or reached its end.',
    ].join(' '),
  );
export type EventType = z.infer<typeof EventTypeSchema>;

/** A notification's way, as `notified` names it. */
export const NotifyChannelSchema = z.enum(['push', 'email']);

/** One event as /v1 and the export write it. */
export const InteractionEventSchema = z
  .object({
    id: z
      .string()
      .regex(/^iev_[0-9a-f]{32}$/)
      .describe('The event (iev_…); a webhook delivery’s webhook-id.'),
    workspaceId: idSchema('workspace', 'The workspace whose chain the event is in (ws_…).'),
    seq: z
      .int()
      .min(1)
      .nullable()
      .describe('Its place in the workspace’s chain (1, 2, 3, …); null for a moment after it is written, until sealed.'),
    sessionId: z
      .string()
      .regex(/^(ses|ask)_[a-z2-7]{26}$/)
      .describe('The interaction (ses_…) or Ask (ask_…).'),
    kind: z.enum(['interaction', 'ask']),
    type: EventTypeSchema,
    at: TimestampSchema.describe('When it happened.'),
    revision: z.int().min(1).nullable().describe('The revision it concerns.'),
    respondentId: z.string().nullable().describe('An Ask’s respondent (rsp_…) for started and answered; else null.'),
    channel: NotifyChannelSchema.nullable().describe('notified: push or email; else null.'),
    responseEventId: z
      .string()
      .nullable()
      .describe('answered: the answer’s event id (evt_…), its receipt’s event_id; else null.'),
    assurance: AnswerAssuranceSchema.nullable().describe('answered: the level the answer was given at; else null.'),
    prevHash: Sha256Schema.nullable().describe(
      'The hash of the event before it in the chain (64 zeros for the first); null until sealed.',
    ),
    hash: Sha256Schema.nullable().describe(
      'SHA-256 of the canonical JSON of every other field of the event (keys sorted, no spaces); null until sealed.',
    ),
  })
  .describe('One thing that happened to an interaction or an Ask, in its workspace’s hash chain.');
export type InteractionEvent = z.infer<typeof InteractionEventSchema>;

/** `GET /v1/sessions/{id}/events`. */
export const EventPageSchema = z
  .object({
    events: z.array(InteractionEventSchema),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.'),
  })
  .describe('A page of a session’s timeline, oldest first.');
export type EventPage = z.infer<typeof EventPageSchema>;

/** The query of `GET /v1/sessions/{id}/events`. */
export const EventPageQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(40).optional().describe('nextCursor of the previous page.'),
  limit: z.int().min(1).max(500).optional().describe('Most events per page, default 100.'),
});

/** The query of `GET /v1/events` (the export, JSON Lines). */
export const EventExportQuerySchema = z.strictObject({
  since: z.iso.datetime().optional().describe('The first instant to export (ISO 8601, inclusive); since or after is required.'),
  until: z.iso.datetime().optional().describe('The instant to stop before (exclusive); default: every event sealed so far.'),
  after: z
    .int()
    .min(0)
    .optional()
    .describe('Resume after this seq (the last line of an earlier export) instead of since: the file then joins that one.'),
});
