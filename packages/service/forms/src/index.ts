/*
 * @sess/forms: the runtime behind the link. Workspace verbs (agent side, every query filtered
 * by workspace), link verbs (the person's page, by token), waits, signing keys and idempotency.
 * No HTTP here: `/v1` and the JWKS are @sess/v1-api, the answer pages @sess/answer-pages. See README.md.
 */
export { type AskView, readAsk } from './asks/read-ask.ts';
export { deleteExpiredIdempotencyKeys } from './idempotency/delete-expired-keys.ts';
export {
  checkIdempotencyKey,
  IDEMPOTENCY_WINDOW_SECONDS,
  type Idempotency,
  V1_SCOPE,
} from './idempotency/idempotency-key.ts';
export { runIdempotent, type Written } from './idempotency/run-idempotent.ts';
export { readJwks } from './keys/read-jwks.ts';
export { ensureSigningKey, loadSigningKeyRing, rotateSigningKeys, SIGNING_KEYS_CHANNEL } from './keys/signing-keys.ts';
export { LINK_WAY } from './link/admit-answer.ts';
export {
  type Answerer,
  type AnswerGate,
  type AnswerWay,
  admitAnswerer,
  decideAnswerer,
  type PasskeyProof,
  respondentOf,
} from './link/answerer.ts';
export { extendLink } from './link/extend-link.ts';
export { namedRespondentToken } from './link/named-respondent.ts';
export { openLink } from './link/open-link.ts';
export { bindPasskeyAnswer, type PasskeyBinding } from './link/passkey-binding.ts';
export { recordLinkOpened } from './link/record-opened.ts';
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
  type ApiKeyNoticeForm,
  type ApiKeyNotices,
  type AskAnswerEvent,
  createFormsRuntime,
  type FormsObserver,
  type FormsRuntime,
  type FormsRuntimeOptions,
  type PeopleNotices,
  WORKSPACE_WRITE_DEFAULTS,
  type WorkspaceWriteBound,
} from './runtime/forms-runtime.ts';
export { type FormAudience, withCurrentFloor } from './sessions/audience.ts';
export { type CompleteSessionInput, completeSession } from './sessions/complete-session.ts';
export type { FormMaker, WorkspaceContext } from './sessions/context.ts';
export { type CreateAskInput, type CreatedAsk, createAsk, type PreparedAsk, prepareAsk } from './sessions/create-ask.ts';
export {
  type CreatedSession,
  type CreateSessionInput,
  createSession,
  prepareSession,
  type RequestArguments,
} from './sessions/create-session.ts';
export type { CreateExtras, PreparedCreate } from './sessions/insert-session.ts';
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
export type { CreateCompanion, CreateGate } from './sessions/session-rows.ts';
export { type WithdrawnSession, type WithdrawSessionInput, withdrawSession } from './sessions/withdraw-session.ts';
export { REAL_WAIT_CLOCK, type WaitClock } from './waits/waiter-hub.ts';
