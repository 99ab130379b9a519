/*
 * @sess/forms: the runtime behind the link. Workspace verbs (agent side, every query filtered
 * by workspace), link verbs (the person's page, by token), waits, signing keys, and the /v1
 * and JWKS routes. See README.md.
 */
export { type AskView, readAsk } from './asks/read-ask.ts';
export { createJwksRoute, JWKS_PATH } from './http/jwks-route.ts';
export { readJsonBody, V1_BODY_LIMIT_BYTES } from './http/read-body.ts';
export { createV1Routes, type V1Env, type V1Principal, type V1RoutesDeps, WORKSPACE_HEADER } from './http/v1-routes.ts';
export { deleteExpiredIdempotencyKeys } from './idempotency/delete-expired-keys.ts';
export {
  checkIdempotencyKey,
  IDEMPOTENCY_WINDOW_SECONDS,
  type Idempotency,
  V1_SCOPE,
} from './idempotency/idempotency-key.ts';
export { readJwks } from './keys/read-jwks.ts';
export { ensureSigningKey, loadSigningKeyRing, rotateSigningKeys, SIGNING_KEYS_CHANNEL } from './keys/signing-keys.ts';
export { extendLink } from './link/extend-link.ts';
export { openLink } from './link/open-link.ts';
export { type StartedRespondent, startRespondent } from './link/start-respondent.ts';
export { type SubmitLinkAnswerInput, type SubmitLinkAnswerResult, submitLinkAnswer } from './link/submit-link-answer.ts';
export { type WaitLinkInput, waitLink } from './link/wait-link.ts';
export type { AskState, LinkState, SessionState } from './model/derive-state.ts';
export {
  DEFAULT_EXPIRES_IN_SECONDS,
  DEFAULT_LINK_HORIZON_SECONDS,
  EXTENDABLE_MAX_SECONDS,
  MAX_ASK_RESPONDENTS,
  MAX_WAIT_MS,
} from './model/lifetimes.ts';
export { classifyToken, linkUrl } from './model/link-tokens.ts';
export { describeSeconds, PLANS, type Plan, type PlanName, planFor } from './model/plans.ts';
export type {
  AnswerView,
  AskLinkView,
  InteractionLinkView,
  LinkAnswer,
  LinkView,
  RespondentLinkView,
  SessionView,
} from './model/views.ts';
export {
  createPageRoutes,
  PAGE_BODY_LIMIT_BYTES,
  PAGE_WAIT_MS,
  type PageRoutesDeps,
  RESPONDENT_COOKIE,
} from './pages/create-page-routes.ts';
export { createFormsRuntime, type FormsRuntime, type FormsRuntimeOptions } from './runtime/forms-runtime.ts';
export { type CompleteSessionInput, completeSession } from './sessions/complete-session.ts';
export type { WorkspaceContext } from './sessions/context.ts';
export { type CreateAskInput, type CreatedAsk, createAsk } from './sessions/create-ask.ts';
export { type CreatedSession, type CreateSessionInput, createSession } from './sessions/create-session.ts';
export {
  LIST_STATUSES,
  type ListSessionsInput,
  type ListStatus,
  listSessions,
  type SessionList,
  type SessionSummary,
} from './sessions/list-sessions.ts';
export { type PublishSessionInput, publishSession } from './sessions/publish-session.ts';
export { type ReadSessionInput, readSession } from './sessions/read-session.ts';
export { type WithdrawnSession, type WithdrawSessionInput, withdrawSession } from './sessions/withdraw-session.ts';
