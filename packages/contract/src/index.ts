/*
 * @sess/contract: what Sess says on the wire, in one place, for every host. The states of an
 * interaction and of a session with one transition table each; zod schemas of every tool's input
 * and output, every /v1 request and response, the views and the error shape; the tool
 * descriptions and server instructions; and the JSON Schema (tools/list) and OpenAPI 3.1
 * (/v1/openapi.json) generated from those schemas. See README.md.
 */
export { type AnswerValue, AnswerValueSchema, idSchema, MAX_WAIT_MS, Sha256Schema, TimestampSchema } from './common.ts';
export {
  ERROR_CODES,
  type ErrorBody,
  ErrorBodySchema,
  ErrorCodeSchema,
  type ErrorResponse,
  ErrorResponseSchema,
  type ToolError,
  type ToolErrorBody,
  ToolErrorBodySchema,
  ToolErrorSchema,
} from './errors.ts';
export {
  cleanGenerated,
  deepFreeze,
  GENERATION_OPTIONS,
  JSON_SCHEMA_DIALECT,
  toolJsonSchema,
} from './json-schema/to-json-schema.ts';
export {
  FINISHED_HANDLE_STATES,
  HANDLE_MACHINE,
  HANDLE_STATES,
  type HandleEvent,
  type HandleState,
  HandleStateSchema,
  isUnfinishedHandleState,
  REVIEW_HANDLE_STATES,
  UNFINISHED_HANDLE_STATES,
} from './states/handle-states.ts';
export { RESULT_STATES, type ResultState, ResultStateSchema } from './states/result-states.ts';
export {
  ASK_STATES,
  type AskState,
  AskStateSchema,
  deriveAskState,
  deriveLinkState,
  deriveSessionState,
  isSettledSessionState,
  LINK_STATES,
  type LinkState,
  SESSION_LIST_STATUSES,
  SESSION_STATES,
  type SessionFacts,
  type SessionListStatus,
  SessionListStatusSchema,
  type SessionState,
  SessionStateSchema,
  STORED_SESSION_MACHINE,
  STORED_SESSION_STATES,
  type StoredSessionEvent,
  type StoredSessionState,
  StoredSessionStateSchema,
  TIME_PHASES,
  type TimePhase,
} from './states/session-states.ts';
export { defineStateMachine, type StateMachine, type Transition, TransitionError } from './states/state-machine.ts';
export {
  ASK_OPEN_LINE,
  linkLines,
  REWAIT_LINE,
  SERVER_INSTRUCTIONS,
  SESS_ASK_DESCRIPTION,
  SESS_CANCEL_DESCRIPTION,
  SESS_COMPLETE_DESCRIPTION,
  SESS_LIST_DESCRIPTION,
  SESS_PUBLISH_DESCRIPTION,
  SESS_REQUEST_DESCRIPTION,
  SESS_RESPONSE_DESCRIPTION,
} from './tools/descriptions.ts';
export {
  INTERACTION_LIST_STATUSES,
  type InteractionListStatus,
  type SessAskInput,
  SessAskInputSchema,
  type SessCancelInput,
  SessCancelInputSchema,
  type SessCompleteInput,
  SessCompleteInputSchema,
  type SessListInput,
  SessListInputSchema,
  type SessPublishInput,
  SessPublishInputSchema,
  type SessRequestInput,
  SessRequestInputSchema,
  type SessResponseInput,
  SessResponseInputSchema,
} from './tools/tool-inputs.ts';
export {
  type AskAnswerResult,
  AskAnswerResultSchema,
  type AskResult,
  AskResultSchema,
  type InteractionOutput,
  InteractionOutputSchema,
  type InteractionResult,
  InteractionResultSchema,
  type ListedInteraction,
  ListedInteractionSchema,
  type ListResult,
  ListResultSchema,
  type ResponseResult,
  ResponseResultSchema,
} from './tools/tool-outputs.ts';
export {
  TOOL_NAMES,
  TOOLS,
  type ToolContract,
  type ToolHints,
  type ToolName,
  toolInputJsonSchema,
  toolOutputJsonSchema,
} from './tools/tools.ts';
export { buildV1OpenApiDocument } from './v1/openapi.ts';
export {
  type CompleteSessionRequest,
  CompleteSessionRequestSchema,
  CREATE_ASK_EXAMPLE,
  type CreateAskRequest,
  CreateAskRequestSchema,
  type CreateSessionRequest,
  CreateSessionRequestSchema,
  IdempotencyKeySchema,
  IfMatchSchema,
  type ListSessionsQuery,
  ListSessionsQuerySchema,
  type PublishSessionRequest,
  PublishSessionRequestSchema,
  type ReadSessionQuery,
  ReadSessionQuerySchema,
  ResponseEventIdSchema,
  type WithdrawSessionRequest,
  WithdrawSessionRequestSchema,
} from './v1/requests.ts';
export { findV1Route, V1_ROUTES, type V1Response, type V1ResponseHeader, type V1Route } from './v1/routes.ts';
export {
  type AnswerView,
  AnswerViewSchema,
  type AskView,
  AskViewSchema,
  type CreatedAsk,
  CreatedAskSchema,
  type CreatedSession,
  CreatedSessionSchema,
  type JwksDocument,
  JwksSchema,
  PublishedJwkSchema,
  type SessionList,
  SessionListSchema,
  type SessionSummary,
  SessionSummarySchema,
  type SessionView,
  SessionViewSchema,
  type WithdrawnSession,
  WithdrawnSessionSchema,
} from './v1/views.ts';
