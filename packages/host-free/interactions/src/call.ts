import type { Logger } from '@sess/core';
import type { ReceiptKeySet } from '@sess/receipts';
import type { HandleBinding, HandleStore } from './ports/handle-store.ts';
import type { BackendContext, SessBackend } from './ports/sess-backend.ts';

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

/** What one HTTP request brings: its authority, its bound store and its deadline. */
export interface RequestScope {
  principal: SessPrincipal;
  binding: HandleBinding;
  store: HandleStore;
  /** Aborts at the request's absolute deadline or when the client goes away. */
  deadline: AbortSignal;
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
