import type { Logger } from '@sess/core';
import type { ReceiptKeySet } from '@sess/receipts';
import type { HandleBinding, HandleRecord, HandleStore } from './ports/handle-store.ts';
import type { BackendContext, SessBackend, SessionView } from './ports/sess-backend.ts';

/**
 * The authenticated caller, as the hosting runtime's `authenticate` returns it. The edge never
 * derives it from headers itself and never hands the MCP bearer token to a tool or to Sess.
 */
export interface SessPrincipal {
  workspaceId: string;
  principalId: string;
  clientId: string;
  grantId: string;
  grantGeneration: number;
  scopes: readonly string[];
  /** Access-token expiry, seconds since the epoch (passed to the SDK's AuthInfo). */
  expiresAt?: number;
  /** A credential for a remote runtime, when the backend needs one. */
  credential?: () => Promise<string>;
}

/** How answers are verified: the receipt key set and the exact issuer. Built once, shared. */
export interface ReceiptVerification {
  keys: ReceiptKeySet;
  issuer: string;
}

/** What every tool call shares for the life of the handler. */
export interface ToolDeps {
  backend?: SessBackend;
  receipts?: ReceiptVerification;
  now: () => Date;
  logger?: Logger;
  /** The wait ceiling (45 000 ms, or lower). */
  maxWaitMs: number;
}

/**
 * A sess_response wait a host ran before building its MCP server (`waitEarly`), so a parked wait
 * holds only the wait: the handle record it loaded and, when it waited, how the read settled. The
 * call it was for then acts on it (`RequestScope.early`) instead of loading and reading again.
 */
export interface EarlyResponseRead {
  /** When the host began it (`performance.now()`): the call's timing counts the wait. */
  startedAt: number;
  handle: string;
  revision: number;
  record: HandleRecord;
  /** Absent when the call needs no waiting read (an answer saved already, an Ask, an end state). */
  settled?: { view: SessionView } | { error: unknown };
}

/** What one HTTP request brings: its authority, its bound store and its deadline. */
export interface RequestScope {
  principal: SessPrincipal;
  binding: HandleBinding;
  store: HandleStore;
  /** Aborts at the request's absolute deadline or when the client goes away. */
  deadline: AbortSignal;
  /** A sess_response wait the host already ran for this request's one call (see `waitEarly`). */
  early?: EarlyResponseRead | undefined;
}

/** Everything a tool operation sees. */
export interface ToolCall {
  deps: ToolDeps;
  scope: RequestScope;
  /** Aborts on the deadline, a client disconnect, or an MCP cancellation. Only waits honour it. */
  signal: AbortSignal;
}

export function backendContext(scope: RequestScope): BackendContext {
  const ctx: BackendContext = { workspaceId: scope.principal.workspaceId, principalId: scope.principal.principalId };
  if (scope.principal.credential) ctx.credential = scope.principal.credential;
  return ctx;
}
