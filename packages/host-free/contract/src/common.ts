import { ID_PREFIXES, type IdKind } from '@sess/core';
import { z } from 'zod';

/** The longest wait one read may ask for (`wait_ms` of `GET /v1/sessions/:id` and sess_response). */
export const MAX_WAIT_MS = 45_000;

/** A prefixed id of `kind` as the id registry makes them (`ses_` + 26 base32 characters). */
export function idSchema(kind: IdKind, description: string): z.ZodString {
  return z
    .string()
    .regex(new RegExp(`^${ID_PREFIXES[kind]}_[a-z2-7]{26}$`))
    .describe(description);
}

/**
 * The longest `response_event_id` taken, by the tools and by /v1 alike. Every answer event id Sess
 * makes is `evt_` + 26 base32 characters (30), so 64 refuses none; a longer value could only ever
 * have been refused as not the answer (RESPONSE_MISMATCH), and is now refused as too long.
 */
export const RESPONSE_EVENT_ID_MAX_LENGTH = 64;

/** `response_event_id`: the answer event a publish or complete acts on. */
export function responseEventIdSchema(description: string): z.ZodString {
  return z.string().min(1).max(RESPONSE_EVENT_ID_MAX_LENGTH).describe(description);
}

/** An instant as the API writes it: ISO 8601 in UTC with milliseconds (`Date#toISOString`). */
export const TimestampSchema = z.iso.datetime();

/** A SHA-256 digest in lower-case hex. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

/** One field's answer: text, a number, a checkbox, or the options chosen of a multi-choice. */
export const AnswerValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type AnswerValue = z.infer<typeof AnswerValueSchema>;

/** Which way an answer came: `link` (the answer page) or `chat` (the form inside the agent's chat, MCP Apps); the receipt's `via`. */
export const AnswerViaSchema = z.enum(['link', 'chat']);
export type AnswerVia = z.infer<typeof AnswerViaSchema>;

/**
 * How sure Sess was of who gave an answer, as its receipt's `assurance` signs it: `link` (whoever
 * held the link), `account` (the signed-in Sess account the form was for), `passkey` (that
 * account with a passkey ceremony bound to the answer).
 */
export const AnswerAssuranceSchema = z.enum(['link', 'account', 'passkey']);
export type AnswerAssurance = z.infer<typeof AnswerAssuranceSchema>;
