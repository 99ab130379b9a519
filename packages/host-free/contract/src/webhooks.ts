import { z } from 'zod';
import { idSchema, TimestampSchema } from './common.ts';
import { EVENT_TYPES, EventTypeSchema, InteractionEventSchema } from './events.ts';

/*
 * Webhooks: the /v1 registration requests and views, and the payload Sess POSTs. Deliveries are
 * signed in the Standard Webhooks format (webhook-id, webhook-timestamp, webhook-signature).
 */

/** What a webhook can carry: every interaction event type, and `test` (a registration's "send test event"). */
export const WEBHOOK_EVENT_TYPES = [...EVENT_TYPES, 'test'] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** The longest endpoint URL taken. */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** `POST /v1/webhooks`. */
export const CreateWebhookRequestSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(WEBHOOK_URL_MAX_LENGTH)
      .describe('Where deliveries are POSTed: https, a public address (no redirects are followed).'),
    eventTypes: z
      .array(EventTypeSchema)
      .max(EVENT_TYPES.length)
      .optional()
      .describe('The event types sent; absent or empty: every type.'),
  })
  .strict();
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequestSchema>;

/** One endpoint as /v1 and the account page show it; never its secret. */
export const WebhookEndpointViewSchema = z.object({
  id: idSchema('webhookEndpoint', 'The endpoint (whe_…).'),
  url: z.string(),
  eventTypes: z.array(EventTypeSchema).describe('The event types sent; empty: every type.'),
  createdAt: TimestampSchema,
  disabledAt: TimestampSchema.nullable().describe('When Sess stopped sending (the receiver answered 410); null while enabled.'),
  disabledReason: z.enum(['gone']).nullable(),
  previousSecretUntil: TimestampSchema.nullable().describe('During a rotation: until when the previous secret signs too.'),
});
export type WebhookEndpointView = z.infer<typeof WebhookEndpointViewSchema>;

export const WebhookListSchema = z.object({ webhooks: z.array(WebhookEndpointViewSchema) });
export type WebhookList = z.infer<typeof WebhookListSchema>;

const SecretSchema = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
  .describe('The signing secret (whsec_…), shown only here.');

export const CreatedWebhookSchema = WebhookEndpointViewSchema.extend({ secret: SecretSchema });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

export const RotatedWebhookSchema = z.object({
  id: idSchema('webhookEndpoint', 'The endpoint (whe_…).'),
  secret: SecretSchema,
  previousSecretUntil: TimestampSchema.describe('The old secret signs too until then (24 hours).'),
});
export type RotatedWebhook = z.infer<typeof RotatedWebhookSchema>;

export const DeletedWebhookSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export const WebhookTestSentSchema = z.object({
  deliveryId: idSchema('webhookDelivery', 'The test delivery (whd_…); see its tries in the delivery log.'),
  eventId: idSchema('webhookTest', 'The test event’s webhook-id (wht_…).'),
});

/** One try of a delivery. */
export const WebhookAttemptSchema = z.object({
  at: TimestampSchema,
  status: z.int().nullable().describe('The receiver’s HTTP status; null when none came.'),
  durationMs: z.int().min(0),
  error: z
    .string()
    .nullable()
    .describe(
      'Why it failed: timeout, network, dns_failed, address_not_allowed, url_not_allowed, too_large, redirect, http_status; null on a 2xx.',
    ),
});

export const WebhookDeliveryViewSchema = z.object({
  id: idSchema('webhookDelivery', 'The delivery (whd_…).'),
  eventId: z.string().describe('The event (iev_…, or wht_… for a test): the webhook-id of every try.'),
  eventType: WebhookEventTypeSchema,
  status: z.enum(['pending', 'delivered', 'failed', 'dropped']),
  attempts: z.int().min(0),
  nextAttemptAt: TimestampSchema.nullable().describe('pending: the next try; else null.'),
  createdAt: TimestampSchema,
  lastAttempts: z.array(WebhookAttemptSchema).describe('The last tries, newest last.'),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryViewSchema>;

export const WebhookDeliveryListSchema = z.object({ deliveries: z.array(WebhookDeliveryViewSchema) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

/** An interaction event as a webhook carries it; `answered` adds the answer's receipt (a JWS), never its values. */
export const WebhookEventDataSchema = InteractionEventSchema.extend({
  receipt: z.string().optional().describe('answered: the answer’s receipt (compact JWS), to verify who answered.'),
});
export type WebhookEventData = z.infer<typeof WebhookEventDataSchema>;

/** The body of a delivery. */
export const WebhookPayloadSchema = z.discriminatedUnion('type', [
  z.object({
    type: EventTypeSchema,
    timestamp: TimestampSchema,
    data: WebhookEventDataSchema,
  }),
  z.object({
    type: z.literal('test'),
    timestamp: TimestampSchema,
    data: z.object({ endpointId: z.string(), message: z.string() }),
  }),
]);
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;
