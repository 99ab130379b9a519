/*
 * @sess/client: a typed client for Sess's /v1 API (create a form, give the person its link,
 * wait for the answer, verify its receipt, publish a follow-up or complete), with failures
 * classified as the seed's SDK error kinds. See README.md.
 */
export type {
  AnswerValue,
  AnswerView,
  AskView,
  CreateAskRequest,
  CreatedAsk,
  CreatedSession,
  CreatedWebhook,
  CreateSessionRequest,
  CreateWebhookRequest,
  EventPage,
  InteractionEvent,
  RotatedWebhook,
  SessionList,
  SessionListStatus,
  SessionState,
  SessionSummary,
  SessionView,
  WebhookDeliveryList,
  WebhookEndpointView,
  WebhookList,
  WebhookPayload,
  WithdrawnSession,
} from '@sess/contract';
export type { DecisionClaims, ReceiptClaims, ReceiptFailureReason } from '@sess/receipts';
export {
  createSessClient,
  type SessAsks,
  type SessClient,
  type SessClientOptions,
  type SessReceipts,
  type SessSessions,
  type SessWebhooks,
} from './client/create-sess-client.ts';
export {
  isSessClientError,
  SESS_CLIENT_ERROR_KINDS,
  SessClientError,
  type SessClientErrorInit,
  type SessClientErrorKind,
} from './errors/sess-client-error.ts';
export type { CallOptions, SessResult, SessWriteResult, WriteOptions } from './http/send-request.ts';
export type { VerifiedDecision, VerifyDecisionOptions } from './receipts/verify-decision.ts';
export type { VerifiedResponse, VerifyResponseInput } from './receipts/verify-response.ts';
export type { CompleteSessionInput } from './sessions/complete-session.ts';
export type { SessionEventsQuery } from './sessions/list-session-events.ts';
export type { ListSessionsQuery } from './sessions/list-sessions.ts';
export type { PublishSessionInput } from './sessions/publish-session.ts';
export type { ReadSessionQuery } from './sessions/read-session.ts';
export type { WaitOptions } from './sessions/wait-for-session.ts';
export { CLIENT_VERSION } from './version.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookHeaders,
} from './webhooks/verify-webhook.ts';
