export {
  backendContext,
  MAX_WAIT_MS,
  type ReceiptVerification,
  type RequestScope,
  type SessPrincipal,
  type ToolCall,
  type ToolDeps,
} from './call.ts';
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
} from './descriptions.ts';
export { type ListResult, OPERATIONS, type Operation, TOOL_NAMES, type ToolName } from './operations.ts';
export {
  type CreateIntent,
  HANDLE_STATES,
  type HandleBinding,
  type HandlePatch,
  type HandleRecord,
  type HandleState,
  type HandleStore,
  type HandleStoreFactory,
  LIST_STATUSES,
  type ListStatus,
  MAX_UNFINISHED_PER_PRINCIPAL,
  type SavedMutation,
  type SavedResponse,
  type SealedData,
  UNFINISHED_STATES,
} from './ports/handle-store.ts';
export {
  type AnswerView,
  type AskView,
  type BackendContext,
  type CreatedAsk,
  type CreatedSession,
  type CreateOptions,
  type SessBackend,
  type SessionSummary,
  type SessionView,
  UnitOfWorkFailure,
  type WithdrawnView,
} from './ports/sess-backend.ts';
export type { UnitOfWork } from './ports/unit-of-work.ts';
export {
  type AskResult,
  asSessError,
  errorBody,
  type InteractionResult,
  type ResponseResult,
  type ResultLead,
  resultText,
} from './results.ts';
export type { ListedInteraction } from './verbs/list-interactions.ts';
