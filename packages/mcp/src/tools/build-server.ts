import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  type ToolAnnotations,
} from '@modelcontextprotocol/server';
import { isId, isSessError, SessError } from '@sess/core';
import type { RequestScope, ToolCall, ToolDeps } from './context.ts';
import { createPlanned, planAsk, planRequest } from './create-interaction.ts';
import {
  SERVER_INSTRUCTIONS,
  SESS_ASK_DESCRIPTION,
  SESS_CANCEL_DESCRIPTION,
  SESS_COMPLETE_DESCRIPTION,
  SESS_LIST_DESCRIPTION,
  SESS_PUBLISH_DESCRIPTION,
  SESS_REQUEST_DESCRIPTION,
  SESS_RESPONSE_DESCRIPTION,
} from './descriptions.ts';
import { listInteractions } from './list-interactions.ts';
import { cancelInteraction, completeInteraction, publishInteraction } from './mutate-interaction.ts';
import { readResponse } from './read-response.ts';
import {
  asSessError,
  type InteractionResult,
  interactionResult,
  type ResultLead,
  structuredResult,
  toolError,
} from './results.ts';
import {
  INTERACTION_OUTPUT,
  LIST_OUTPUT,
  passThroughSchema,
  SESS_CANCEL_INPUT,
  SESS_COMPLETE_INPUT,
  SESS_LIST_INPUT,
  SESS_RESPONSE_INPUT,
  sessAskInputSchema,
  sessPublishInputSchema,
  sessRequestInputSchema,
} from './schemas.ts';

/** Where the edge puts the request's scope inside the SDK's pass-through `authInfo.extra`. */
export const SCOPE_KEY = 'sess.scope';

/** The server's identity on the wire. */
export const SERVER_INFO = { name: 'sess', title: 'Sess', version: '0.1.0' } as const;

type Run = (call: ToolCall, args: unknown) => Promise<CallToolResult>;

interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: ReturnType<typeof passThroughSchema>;
  output: ReturnType<typeof passThroughSchema>;
  annotations: ToolAnnotations;
  run: Run;
}

const interaction =
  (operation: (call: ToolCall, args: unknown) => Promise<InteractionResult>, lead: ResultLead = 'none'): Run =>
  async (call, args) =>
    interactionResult(await operation(call, args), lead);

/** The seven tools, their schemas converted once for the life of the process. */
function defineTools(): ToolDefinition[] {
  const output = passThroughSchema(INTERACTION_OUTPUT);
  return [
    {
      name: 'sess_ask',
      title: 'Ask a person a short question',
      description: SESS_ASK_DESCRIPTION,
      input: passThroughSchema(sessAskInputSchema()),
      output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      run: interaction((call, args) => createPlanned(call, planAsk(args)), 'create'),
    },
    {
      name: 'sess_request',
      title: 'Ask a person with a full form',
      description: SESS_REQUEST_DESCRIPTION,
      input: passThroughSchema(sessRequestInputSchema()),
      output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      run: interaction((call, args) => createPlanned(call, planRequest(args)), 'create'),
    },
    {
      name: 'sess_response',
      title: "Read the person's answer",
      description: SESS_RESPONSE_DESCRIPTION,
      input: passThroughSchema(SESS_RESPONSE_INPUT),
      output,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: interaction(readResponse, 'read'),
    },
    {
      name: 'sess_publish',
      title: 'Show the person the next step',
      description: SESS_PUBLISH_DESCRIPTION,
      input: passThroughSchema(sessPublishInputSchema()),
      output,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: interaction(publishInteraction),
    },
    {
      name: 'sess_complete',
      title: 'Finish with the answer',
      description: SESS_COMPLETE_DESCRIPTION,
      input: passThroughSchema(SESS_COMPLETE_INPUT),
      output,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: interaction(completeInteraction),
    },
    {
      name: 'sess_list',
      title: 'List your open interactions',
      description: SESS_LIST_DESCRIPTION,
      input: passThroughSchema(SESS_LIST_INPUT),
      output: passThroughSchema(LIST_OUTPUT),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      run: async (call, args) => structuredResult({ ...(await listInteractions(call, args)) }),
    },
    {
      name: 'sess_cancel',
      title: 'Withdraw a form',
      description: SESS_CANCEL_DESCRIPTION,
      input: passThroughSchema(SESS_CANCEL_INPUT),
      output,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: interaction(cancelInteraction),
    },
  ];
}

let definitions: ToolDefinition[] | undefined;

/** The tool names, in the order tools/list shows them. */
export const TOOL_NAMES = [
  'sess_ask',
  'sess_request',
  'sess_response',
  'sess_publish',
  'sess_complete',
  'sess_list',
  'sess_cancel',
];

/**
 * The handle a call names, for its log line — only once it has a handle's shape. An agent that
 * passes something else there (say, the link token by mistake) must not get it written to the log.
 */
function handleOf(args: unknown): string | undefined {
  const handle = args && typeof args === 'object' ? (args as { handle?: unknown }).handle : undefined;
  return typeof handle === 'string' && isId('handle', handle) ? handle : undefined;
}

/**
 * Builds the per-request server factory. Everything costly is made once here: the seven tools,
 * their JSON Schemas (from @sess/surface, never converted again), the tools/list result and the
 * handlers. Each request only constructs a low-level `Server` and attaches two prepared request
 * handlers — no per-request tool registration, schema conversion or schema scan, which is where
 * `McpServer` spends its time. The handlers find the request's authority, store and deadline in
 * `authInfo.extra` (put there by the edge), never in headers.
 */
export function createServerFactory(deps: ToolDeps): (ctx: { authInfo?: { extra?: Record<string, unknown> } }) => Server {
  definitions ??= defineTools();
  const byName = new Map<string, { tool: ToolDefinition; outputJson: Record<string, unknown> }>();
  const listing = {
    tools: definitions.map((tool) => {
      const inputJson = tool.input['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
      const outputJson = tool.output['~standard'].jsonSchema.output({ target: 'draft-2020-12' });
      byName.set(tool.name, { tool, outputJson });
      return {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: inputJson,
        outputSchema: outputJson,
        annotations: tool.annotations,
      };
    }),
  };

  async function callTool(name: string, args: unknown, ctx: ServerContext): Promise<CallToolResult> {
    const entry = byName.get(name);
    if (!entry) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
    const { tool } = entry;
    const started = performance.now();
    const scope = ctx.http?.authInfo?.extra?.[SCOPE_KEY] as RequestScope | undefined;
    let outcome = 'ok';
    try {
      if (!scope) throw new SessError('NOT_CONFIGURED', 'This server was reached without an authenticated scope.');
      const signal = AbortSignal.any([ctx.mcpReq.signal, scope.deadline]);
      const result = await tool.run({ deps, scope, signal }, args ?? {});
      const state = (result.structuredContent as { interaction?: { state?: string } } | undefined)?.interaction?.state;
      if (state) outcome = state;
      return result;
    } catch (error) {
      const sessError = asSessError(error);
      outcome = sessError.code;
      if (!isSessError(error)) deps.logger?.error({ event: 'mcp.tool.failed', tool: tool.name, err: error }, 'tool failed');
      return toolError(sessError);
    } finally {
      // Tool name, handle, outcome and timing only: never arguments, links or answers.
      deps.logger?.info(
        {
          event: 'mcp.tool',
          tool: tool.name,
          handle: handleOf(args),
          outcome,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'tool call',
      );
    }
  }

  return function buildServer() {
    const server = new Server(SERVER_INFO, {
      instructions: SERVER_INSTRUCTIONS,
      capabilities: { tools: { listChanged: false } },
    });
    server.setRequestHandler('tools/list', () => listing as unknown as ListToolsResult);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args } = request.params;
      const result = await callTool(name, args, ctx);
      return server.projectCallToolResult(result, byName.get(name)?.outputJson);
    });
    return server;
  };
}
