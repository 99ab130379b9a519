import { isId, isSessError, type SessError } from '@sess/core';
import type { RequestScope, ToolCall, ToolDeps } from './call.ts';
import type { ListResult, Operation } from './operations.ts';
import { asSessError, type InteractionResult } from './results.ts';

/*
 * One tool call as every host runs it (the MCP tools, the OpenClaw plugin's): open the call's
 * dependencies and scope, run the operation, turn anything thrown into the SessError the agent
 * gets, and report the call — tool, handle, outcome and time only, never arguments, links or
 * answers. Hosts add only their wire shapes.
 */

/** What one call came to, for the host's log line. */
export interface ToolCallReport {
  tool: string;
  /** The handle the call names, only once it has a handle's shape. */
  handle: string | undefined;
  /** The interaction's state, `ok` for a list, or the error's code. */
  outcome: string;
  /** Milliseconds, to a tenth. */
  ms: number;
}

export interface RunToolOptions {
  /** The call's dependencies and scope; a thrown SessError (no API key, Sess out of reach) is the call's error. */
  open(): Promise<{ deps: ToolDeps; scope: RequestScope }>;
  /** The host request's abort signal, when it has one (an MCP cancellation, OpenClaw's abort). */
  requestSignal?: AbortSignal | undefined;
  /**
   * True when the scope's deadline already aborts whenever `requestSignal` would (the HTTP edge):
   * a wait then takes the deadline alone, without an `AbortSignal.any` held for its whole life.
   */
  deadlineCoversRequest?: boolean | undefined;
  /** Called once per call, when it ends. */
  report(report: ToolCallReport): void;
  /** Called with what was thrown when it was not a SessError: a fault of ours or of a dependency. */
  fault?(error: unknown): void;
}

export type ToolOutcome = { ok: true; value: InteractionResult | ListResult } | { ok: false; error: SessError };

/**
 * The handle a call names, for its log line — only once it has a handle's shape. An agent that
 * passes something else there (say, the link token by mistake) must not get it written to the log.
 */
export function handleOf(args: unknown): string | undefined {
  const handle = args && typeof args === 'object' ? (args as { handle?: unknown }).handle : undefined;
  return typeof handle === 'string' && isId('handle', handle) ? handle : undefined;
}

/**
 * What the operation sees. Its signal is read only by a tool that waits, so it is made then:
 * a scope's deadline builds its AbortController on first read (the hosted edge's does).
 */
function toolCall(deps: ToolDeps, scope: RequestScope, options: RunToolOptions): ToolCall {
  const { requestSignal } = options;
  if (requestSignal && !options.deadlineCoversRequest) {
    return { deps, scope, signal: AbortSignal.any([requestSignal, scope.deadline]) };
  }
  return {
    deps,
    scope,
    get signal() {
      return scope.deadline;
    },
  };
}

/** Runs one call of `operation` (the tool `tool`) on `args`: its result, or the SessError it ended with. */
export async function runTool(tool: string, operation: Operation, args: unknown, options: RunToolOptions): Promise<ToolOutcome> {
  const started = performance.now();
  let outcome = 'ok';
  try {
    const { deps, scope } = await options.open();
    const value = await operation.run(toolCall(deps, scope, options), args ?? {});
    if ('state' in value) outcome = value.state;
    return { ok: true, value };
  } catch (error) {
    const sessError = asSessError(error);
    outcome = sessError.code;
    if (!isSessError(error)) options.fault?.(error);
    return { ok: false, error: sessError };
  } finally {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    options.report({ tool, handle: handleOf(args), outcome, ms });
  }
}
