export { type ApiKeyScopeOptions, type KeyedHandleStore, resolveApiKeyScope } from './backends/api-key-scope.ts';
export {
  createHttpBackend,
  createHttpReceipts,
  type HttpBackendOptions,
  type HttpReceiptsOptions,
  toBackendError,
} from './backends/http-backend.ts';
export {
  backendContext,
  type ReceiptVerification,
  type RequestScope,
  type SessPrincipal,
  type ToolCall,
  type ToolDeps,
} from './call.ts';
export { type ListResult, OPERATIONS, type Operation } from './operations.ts';
export {
  type CreateIntent,
  type HandleBinding,
  type HandlePatch,
  type HandleRecord,
  type HandleStore,
  type HandleStoreFactory,
  type ListStatus,
  MAX_UNFINISHED_PER_PRINCIPAL,
  type SavedMutation,
  type SavedResponse,
  type SealedData,
  UNFINISHED_STATES,
} from './ports/handle-store.ts';
export {
  type BackendContext,
  CommitFailure,
  type CreateAskInput,
  type CreateSessionInput,
  type InWorkspace,
  NotAppliedFailure,
  type SessBackend,
} from './ports/sess-backend.ts';
export type { TaskOwner, TaskRecord, TaskStore } from './ports/task-store.ts';
export {
  type AskResult,
  asSessError,
  errorBody,
  type InteractionResult,
  type ResponseResult,
  type ResultLead,
  resultText,
} from './results.ts';
export { handleOf, type RunToolOptions, runTool, type ToolCallReport, type ToolOutcome } from './run-tool.ts';
export { loadHandle } from './verbs/handles.ts';
export type { ListedInteraction } from './verbs/list-interactions.ts';
