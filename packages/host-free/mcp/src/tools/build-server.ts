import {
  type CallToolResult,
  type ListToolsResult,
  type McpRequestContext,
  ProtocolError,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import { listedTools, SERVER_INSTRUCTIONS, TOOL_NAMES, type ToolName } from '@sess/contract';
import { activeTracer, SessError, type TraceSpan } from '@sess/core';
import {
  errorBody,
  type InteractionResult,
  type ListResult,
  OPERATIONS,
  type Operation,
  type RequestScope,
  resultText,
  runTool,
  type ToolCallReport,
  type ToolDeps,
} from '@sess/interactions';
import { z } from 'zod';
import type { ChatViewService } from '../apps/chat-view-service.ts';
import { EXTENSION_ID } from '../apps/ui-extension.ts';
import type { TaskService } from '../tasks/task-service.ts';
import { missingTasksCapability, TASKS_EXTENSION_ID } from '../tasks/tasks-extension.ts';

/*
 * The MCP SDK adapter: the seven operations of @sess/interactions as MCP tools, listed as the
 * contract describes them (names, titles, descriptions, annotations, and the JSON Schemas
 * generated from its zod schemas), their results and errors as CallToolResults. Nothing else:
 * what a tool does is the operation's, what it says is the contract's.
 */

/** The server's identity on the wire. */
export const SERVER_INFO = { name: 'sess', title: 'Sess', version: '0.1.0' } as const;

export { TOOL_NAMES };

/** An operation's result as an MCP tool result: `structuredContent` and its text. */
function toolResult(operation: Operation, value: InteractionResult | ListResult): CallToolResult {
  if (operation.kind === 'list') {
    const structured = { ...value };
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured } as CallToolResult;
  }
  const interaction = value as InteractionResult;
  return {
    content: [{ type: 'text', text: resultText(interaction, operation.lead) }],
    structuredContent: { interaction },
  } as CallToolResult;
}

/**
 * An MCP tool error (`isError: true`) whose structured content is `{ error }`. Its members in the
 * order the SDK's result schema puts them on the wire, so an answer the edge frames itself is
 * byte for byte the SDK's.
 */
export function toolError(error: SessError): CallToolResult {
  const structured = { error: errorBody(error) };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, isError: true };
}

/**
 * Finds a request's scope. The HTTP edge looks up the request it authenticated (at once); a stdio
 * host resolves its one scope on the first tool call (a promise). A thrown `SessError` (no API key,
 * Sess unreachable) is that tool call's error.
 */
export type ScopeResolver = (ctx: McpRequestContext) => RequestScope | undefined | Promise<RequestScope | undefined>;

export interface ToolRunnerOptions {
  /**
   * True when the scope's deadline already aborts whenever the SDK request's signal would (the
   * HTTP edge: one request per connection, its deadline ends when the client leaves): a wait then
   * takes the deadline alone, without an `AbortSignal.any` held for its whole life. A stdio host,
   * where a client cancels a call by message, leaves it off.
   */
  deadlineCoversRequest?: boolean;
  /** Told of every call when it ends, as the log line is (a host's metrics): tool, outcome and time. */
  onToolCall?: ((report: ToolCallReport) => void) | undefined;
}

/** The tools, runnable by a host: through the SDK's server (`createServerFactory`) or directly (the HTTP edge). */
export interface ToolRunner {
  /** tools/list's result, made once (the JSON Schemas converted once). */
  readonly listing: ListToolsResult;
  /** The tools' names. */
  readonly names: ReadonlySet<string>;
  /** Whether `name` is one of the tools. */
  has(name: string): name is ToolName;
  /**
   * Runs one call of a tool: always a CallToolResult, a failure being a tool error. It takes the
   * SDK request's abort signal (when there is one), not its whole context: a parked wait's frame
   * keeps everything it was passed for up to 45 s.
   */
  call(
    name: ToolName,
    args: unknown,
    resolveScope: () => ReturnType<ScopeResolver>,
    requestSignal?: AbortSignal,
  ): Promise<CallToolResult>;
  /** The advertised output schema of a tool (the SDK projects a result against it). */
  outputSchema(name: ToolName): Record<string, unknown>;
}

/**
 * The server every host speaks as: its identity, instructions and capabilities. To a host that
 * renders apps (`ui`) it also offers its one UI resource and the UI extension; to a request that
 * declared the Tasks extension (`tasks`), that extension.
 */
export function newSessServer(ui = false, tasks = false): Server {
  const extensions = { ...(ui ? { [EXTENSION_ID]: {} } : {}), ...(tasks ? { [TASKS_EXTENSION_ID]: {} } : {}) };
  return new Server(SERVER_INFO, {
    instructions: SERVER_INSTRUCTIONS,
    capabilities: {
      tools: { listChanged: false },
      ...(ui ? { resources: {} } : {}),
      ...(ui || tasks ? { extensions } : {}),
    },
  });
}

/** The Tasks extension: its service, and whether a request declared the extension. */
export interface TaskHosting {
  service: TaskService;
  declares: (ctx: McpRequestContext) => boolean;
}

const TaskParamsSchema = z.object({ taskId: z.string().min(1).max(256) });

/** The form inside the chat: its service, and whether a request comes from a host that renders apps. */
export interface ChatViewHosting {
  service: ChatViewService;
  showsUi: (ctx: McpRequestContext) => boolean;
}

/** The tools with everything costly made once: the tools/list result and the output schemas. */
export function createToolRunner(deps: ToolDeps, options: ToolRunnerOptions = {}): ToolRunner {
  const tools = listedTools();
  const outputs = new Map<string, Record<string, unknown>>(tools.map((tool) => [tool.name, tool.outputSchema]));
  const listing = {
    tools,
  } as unknown as ListToolsResult;

  /**
   * One call (`runTool`): the scope of the request, the operation, and the log line (tool name,
   * handle, outcome and timing only: never arguments, links or answers). A promise chain, not an
   * async function: a parked wait would keep one more frame for up to 45 s.
   */
  function run(
    name: ToolName,
    args: unknown,
    resolveScope: () => ReturnType<ScopeResolver>,
    requestSignal?: AbortSignal,
  ): Promise<CallToolResult> {
    const operation = OPERATIONS[name];
    return runTool(name, operation, args, {
      open: async () => {
        const scope = await resolveScope();
        if (!scope) throw noScope();
        return { deps, scope };
      },
      requestSignal,
      deadlineCoversRequest: options.deadlineCoversRequest,
      fault: (error) => deps.logger?.error({ event: 'mcp.tool.failed', tool: name, err: error }, 'tool failed'),
      report: (report) => {
        deps.logger?.info({ event: 'mcp.tool', ...report }, 'tool call');
        options.onToolCall?.(report);
      },
    }).then((outcome) => (outcome.ok ? toolResult(operation, outcome.value) : toolError(outcome.error)));
  }

  /** A call, in a span of its own when tracing is on (`tools/call <tool>`). */
  function call(
    name: ToolName,
    args: unknown,
    resolveScope: () => ReturnType<ScopeResolver>,
    requestSignal?: AbortSignal,
  ): Promise<CallToolResult> {
    const tracer = activeTracer();
    if (tracer === undefined) return run(name, args, resolveScope, requestSignal);
    return tracer.span(`tools/call ${name}`, { attributes: toolSpanAttributes(name) }, (span) =>
      run(name, args, resolveScope, requestSignal).then((result) => traceToolOutcome(span, result)),
    );
  }

  const names: ReadonlySet<string> = new Set(outputs.keys());
  return {
    listing,
    names,
    has: (name): name is ToolName => names.has(name),
    call,
    outputSchema: (name) => outputs.get(name)!,
  };
}

/** A tool span's attributes (the MCP semantic conventions): the tool's name, one of ours, and nothing of the call. */
function toolSpanAttributes(name: ToolName): Record<string, string> {
  return { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name };
}

/** Puts a call's outcome on its span: the interaction's state, `ok` for a list, or the error's code (failed). */
function traceToolOutcome(span: TraceSpan, result: CallToolResult): CallToolResult {
  const structured = result.structuredContent as { error?: { code?: unknown }; interaction?: { state?: unknown } } | undefined;
  if (result.isError) {
    const code = String(structured?.error?.code ?? 'INTERNAL');
    span.set('sess.outcome', code);
    span.fail(code);
  } else {
    const state = structured?.interaction?.state;
    span.set('sess.outcome', typeof state === 'string' ? state : 'ok');
  }
  return result;
}

/**
 * Builds the per-request server factory on a tool runner (or the tools' dependencies). Each
 * request only constructs a low-level `Server` and attaches two prepared request handlers — no
 * per-request tool registration, schema conversion or schema scan, which is where `McpServer`
 * spends its time. The scope of each request comes from `scopeOf` (the HTTP edge looks it up by
 * the request it authenticated; a stdio host has one fixed scope), never from headers or `authInfo`.
 */
export function createServerFactory(
  tools: ToolDeps | ToolRunner,
  scopeOf: ScopeResolver,
  options: ToolRunnerOptions = {},
  chat?: ChatViewHosting,
  tasks?: TaskHosting,
): (ctx: McpRequestContext) => Server {
  const runner = 'call' in tools ? tools : createToolRunner(tools, options);
  return function buildServer(ctx) {
    const ui = chat?.showsUi(ctx) === true;
    const tasked = tasks?.declares(ctx) === true;
    const server = newSessServer(ui, tasked);
    if (ui && chat) serveChatView(server, chat.service);
    if (tasks) serveTasks(server, tasks.service, tasked, () => scopeOf(ctx), runner.outputSchema('sess_response'));
    server.setRequestHandler('tools/list', () => (ui && chat ? chat.service.listing : runner.listing));
    // Not an async function: a parked wait would keep one more suspended frame for up to 45 s.
    server.setRequestHandler('tools/call', (request, handlerCtx) => {
      const { name, arguments: args } = request.params;
      if (ui && chat?.service.isViewTool(name)) {
        return Promise.resolve(scopeOf(ctx)).then((scope) =>
          scope ? chat.service.callViewTool(name, args, scope) : toolError(noScope()),
        );
      }
      if (!runner.has(name)) return Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`));
      const task = tasked ? tasks?.service.start(name, args, () => scopeOf(ctx)) : undefined;
      if (task) {
        // A task goes out as it is (SDK 2.4 adds an empty `content`); a result settled at once is projected as ever.
        return task.then((result) =>
          'resultType' in result
            ? (result as unknown as CallToolResult)
            : server.projectCallToolResult(result, runner.outputSchema(name)),
        );
      }
      const called = runner.call(name, args, () => scopeOf(ctx), handlerCtx.mcpReq.signal);
      const shown =
        ui && chat
          ? called.then((result) =>
              Promise.resolve(scopeOf(ctx)).then((scope) => (scope ? chat.service.withView(name, result, scope) : result)),
            )
          : called;
      return shown.then((result) => server.projectCallToolResult(result, runner.outputSchema(name)));
    });
    return server;
  };
}

function noScope(): SessError {
  return new SessError('NOT_CONFIGURED', 'This server was reached without an authenticated scope.');
}

/**
 * tasks/get, tasks/update and tasks/cancel (SEP-2663). SDK 2.4 has no server helper for the
 * extension, so they are request handlers of our own (the SDK lets an extension reuse these
 * names); a request that did not declare the extension gets -32021.
 */
function serveTasks(
  server: Server,
  service: TaskService,
  declared: boolean,
  resolveScope: () => ReturnType<ScopeResolver>,
  outputSchema: Record<string, unknown>,
): void {
  const params = { params: TaskParamsSchema };
  server.setRequestHandler('tasks/get', params, (request) => {
    if (!declared) throw missingTasksCapability();
    return service
      .get(request.taskId, resolveScope)
      .then(
        (task): Record<string, unknown> =>
          task.result ? { ...task, result: server.projectCallToolResult(task.result, outputSchema) } : { ...task },
      );
  });
  server.setRequestHandler('tasks/update', params, (request) => {
    if (!declared) throw missingTasksCapability();
    return service.update(request.taskId, resolveScope).then(() => ({}));
  });
  server.setRequestHandler('tasks/cancel', params, (request) => {
    if (!declared) throw missingTasksCapability();
    return service.cancel(request.taskId, resolveScope).then(() => ({}));
  });
}

/** resources/list and resources/read of the one UI resource (an unknown URI is -32602, as the SDK's McpServer answers). */
function serveChatView(server: Server, service: ChatViewService): void {
  server.setRequestHandler('resources/list', () => service.resources);
  server.setRequestHandler('resources/read', (request) => {
    const read = service.readResource(request.params.uri);
    if (!read) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${request.params.uri} not found`);
    return read;
  });
}
