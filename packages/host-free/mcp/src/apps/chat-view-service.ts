import type { CallToolResult, ListResourcesResult, ListToolsResult, ReadResourceResult } from '@modelcontextprotocol/server';
import {
  CHAT_VIEW_META_KEY,
  type ChatViewPayload,
  type ListedTool,
  SessViewAnswerInputSchema,
  SessViewStatusInputSchema,
  VIEW_TOOL_NAMES,
  type ViewToolName,
} from '@sess/contract';
import { createRateLimiter, isSessError, type Logger, SessError } from '@sess/core';
import {
  backendContext,
  errorBody,
  type HandleRecord,
  handleOf,
  loadHandle,
  type RequestScope,
  type ToolCallReport,
} from '@sess/interactions';
import { parseArguments } from '@sess/surface';
import { FORM_TOOLS, uiResource, uiToolListing } from './app-listing.ts';
import type { ChatViews, ChatViewTarget, RenderedChatView } from './chat-views.ts';
import { checkViewToken, issueViewToken, type ViewTokenBinding } from './view-token.ts';

/*
 * The form inside the chat, for a host that renders apps: its listing and resource, the view's
 * payload on the results of the tools that show a form, and the two app-only tools. Every call of
 * an app-only tool needs the view's token (bound to handle, revision, principal and connector)
 * before anything is read; then the handle is loaded with the caller's whole binding, as every
 * tool loads it, and the host renders or answers through the same code as the answer page.
 */

export interface ChatViewServiceOptions {
  views: ChatViews;
  /** The key of the views' tokens (derived from the server secret by the host). */
  secret: string;
  now: () => Date;
  logger?: Logger | undefined;
  /** Status reads per handle and minute (default 40: a view backs off to one every 30 s). */
  statusPerMinute?: number;
  /** Told of every app-only call when it ends, as every tool call is (a host's metrics). */
  onToolCall?: ((report: ToolCallReport) => void) | undefined;
}

export interface ChatViewService {
  /** tools/list for a host that renders apps (made once). */
  readonly listing: ListToolsResult;
  readonly resources: ListResourcesResult;
  /** resources/read of `uri`, or undefined for any other URI. */
  readResource(uri: string): ReadResourceResult | undefined;
  /** Whether `name` is one of the app-only tools. */
  isViewTool(name: string): name is ViewToolName;
  /** Runs an app-only tool; always a CallToolResult (a refusal is a tool error). */
  callViewTool(name: ViewToolName, args: unknown, scope: RequestScope): Promise<CallToolResult>;
  /** Adds the view's payload to a successful result of a tool that shows a form; any failure leaves the result as it was. */
  withView(name: string, result: CallToolResult, scope: RequestScope): Promise<CallToolResult>;
}

const VIEW_TOOLS: ReadonlySet<string> = new Set(VIEW_TOOL_NAMES);

/** What the view tells the agent once the person answered in the chat. */
function answeredMessage(record: HandleRecord, revision: number): string {
  return (
    `I answered the form "${record.title}" here in the chat. ` +
    `Call sess_response with handle ${record.handle} and revision ${revision} to read the verified answer.`
  );
}

function targetOf(record: HandleRecord): ChatViewTarget {
  return { handle: record.handle, kind: record.kind, humanUrl: record.humanUrl, handleState: record.state, title: record.title };
}

export function createChatViewService(options: ChatViewServiceOptions, tools: readonly ListedTool[]): ChatViewService {
  const { views, secret, now, logger } = options;
  const resource = uiResource(views.document, views.linkOrigin);
  const listing = uiToolListing(tools, resource.uri);
  const statusLimiter = createRateLimiter({
    limit: options.statusPerMinute ?? 40,
    windowMs: 60_000,
    now: () => now().getTime(),
  });

  function bindingOf(scope: RequestScope, handle: string, revision: number): ViewTokenBinding {
    return { handle, revision, principalId: scope.principal.principalId, clientId: scope.principal.clientId };
  }

  /** The payload for `view` of `record`: a fresh token while the view may still act. */
  function payloadOf(record: HandleRecord, view: RenderedChatView, scope: RequestScope, message?: string): ChatViewPayload {
    const payload: ChatViewPayload = {
      v: 1,
      handle: record.handle,
      revision: view.revision,
      state: view.state,
      html: view.html,
      poll: view.changing,
    };
    if (view.changing || view.answerable)
      payload.token = issueViewToken(secret, bindingOf(scope, record.handle, view.revision), now());
    if (record.humanUrl) payload.link = record.humanUrl;
    if (message) payload.message = message;
    return payload;
  }

  function viewResult(text: string, payload: ChatViewPayload, refused?: SessError): CallToolResult {
    const result: CallToolResult = { content: [{ type: 'text', text }], _meta: { [CHAT_VIEW_META_KEY]: payload } };
    if (refused) {
      result.structuredContent = { error: errorBody(refused) };
      result.isError = true;
    }
    return result;
  }

  function refusal(error: unknown): CallToolResult {
    const known = isSessError(error)
      ? error
      : new SessError('INTERNAL', 'The form could not be shown just now. Try again in a moment.');
    if (!isSessError(error)) logger?.error({ event: 'mcp.view.failed', err: error }, 'chat view failed');
    return { content: [{ type: 'text', text: known.message }], structuredContent: { error: errorBody(known) }, isError: true };
  }

  /** The call's log line and metrics, as every tool's: tool, handle, outcome and time; never the token or the values. */
  function report(tool: ViewToolName, args: unknown, result: CallToolResult, ms: number): void {
    const payload = result._meta?.[CHAT_VIEW_META_KEY] as ChatViewPayload | undefined;
    const code = (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
    const line: ToolCallReport = {
      tool,
      handle: handleOf(args),
      outcome: code ?? payload?.state ?? 'ok',
      ms: Math.round(ms * 10) / 10,
    };
    logger?.info({ event: 'mcp.tool', ...line }, 'tool call');
    options.onToolCall?.(line);
  }

  /** Refuses a call without a good token before anything is read (the model has none). */
  function checkToken(scope: RequestScope, args: { handle: string; revision: number; token: string }): void {
    if (!checkViewToken(secret, bindingOf(scope, args.handle, args.revision), args.token, now())) {
      throw new SessError(
        'VIEW_TOKEN_INVALID',
        'Only the form shown in the chat can do this, with its own token, and that token is missing, for another form or has expired. Nothing changed: answer on the link, or ask the agent to show the form again.',
        { field: '/token' },
      );
    }
  }

  async function status(rawArgs: unknown, scope: RequestScope): Promise<CallToolResult> {
    const args = parseArguments(SessViewStatusInputSchema, rawArgs);
    checkToken(scope, args);
    const limited = statusLimiter.hit(`${scope.principal.principalId} ${args.handle}`);
    if (!limited.ok) {
      throw new SessError('RATE_LIMITED', 'The form in the chat asked for its status too often. Wait a little.', {
        retryAfter: limited.retryAfterSeconds,
      });
    }
    const record = await loadHandle(scope, args.handle);
    const view = await views.render(backendContext(scope), targetOf(record));
    return viewResult(`The form is ${view.state}.`, payloadOf(record, view, scope));
  }

  async function answer(rawArgs: unknown, scope: RequestScope): Promise<CallToolResult> {
    const args = parseArguments(SessViewAnswerInputSchema, rawArgs);
    checkToken(scope, args);
    const record = await loadHandle(scope, args.handle);
    const outcome = await views.answer(backendContext(scope), targetOf(record), {
      revision: args.revision,
      actionId: args.action_id,
      values: args.values,
    });
    if (outcome.refused) return viewResult(outcome.refused.message, payloadOf(record, outcome.view, scope), outcome.refused);
    return viewResult('Answered.', payloadOf(record, outcome.view, scope, answeredMessage(record, args.revision)));
  }

  return {
    listing,
    resources: resource.listing,
    readResource: (uri) => (uri === resource.uri ? resource.read : undefined),
    isViewTool: (name): name is ViewToolName => VIEW_TOOLS.has(name),
    callViewTool(name, args, scope) {
      const run = name === 'sess_view_answer' ? answer : status;
      const started = performance.now();
      return run(args, scope)
        .catch(refusal)
        .then((result) => {
          report(name, args, result, performance.now() - started);
          return result;
        });
    },
    async withView(name, result, scope) {
      if (!FORM_TOOLS.has(name) || result.isError) return result;
      const handle = (result.structuredContent as { interaction?: { handle?: unknown } } | undefined)?.interaction?.handle;
      if (typeof handle !== 'string') return result;
      try {
        const record = await loadHandle(scope, handle);
        const view = await views.render(backendContext(scope), targetOf(record));
        return { ...result, _meta: { ...result._meta, [CHAT_VIEW_META_KEY]: payloadOf(record, view, scope) } };
      } catch (error) {
        // The tool did its work; without its view the host shows the text result, as any host does.
        logger?.warn({ event: 'mcp.view.render_failed', tool: name, err: error }, 'the chat view of a result could not be made');
        return result;
      }
    },
  };
}
