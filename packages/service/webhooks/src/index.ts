/*
 * @sess/webhooks: signed webhooks (Standard Webhooks) of a workspace's interaction events — the
 * endpoints and their sealed secrets, the fanout from the sealed chain into a durable outbox,
 * the delivery worker (every request through core's egress), and the registration verbs /v1
 * and the account page share. See README.md.
 */
export { readWebhookBacklog, type WebhookBacklog } from './backlog.ts';
export { checkEndpointUrl } from './endpoint-url.ts';
export { createWebhooksApi, MAX_ENDPOINTS, type WebhooksApi, type WebhooksApiOptions } from './endpoints.ts';
export { FANOUT_BATCH, fanOut } from './fanout.ts';
export { type ClaimedDelivery, claimDue, type DeliveryEnd, KEPT_ATTEMPTS, settleDelivery } from './outbox.ts';
export { createWebhookPages, type WebhookPagesDeps } from './pages/webhook-pages.ts';
export { backoffMs, nextTryAt, RETRY_WINDOW_MS } from './retry-rules.ts';
export { createWebhookSealer, ROTATION_OVERLAP_MS } from './secrets.ts';
export { payloadOf, sendDelivery } from './send.ts';
export { DELIVERY_LOG_DAYS, sweepDeliveries } from './sweep.ts';
export {
  startWebhookWorker,
  WEBHOOKS_DUE_CHANNEL,
  type WebhookWorker,
  type WebhookWorkerOptions,
} from './worker.ts';
