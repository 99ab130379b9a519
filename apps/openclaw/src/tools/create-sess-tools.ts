import { ASK_OPEN_LINE, linkLines } from '@sess/contract';
import type { SessError } from '@sess/core';
import { createFileHandleStore } from '@sess/file-store';
import {
  asSessError,
  createHttpBackend,
  createHttpReceipts,
  errorBody,
  type InteractionResult,
  OPERATIONS,
  type RequestScope,
  runTool,
  type ToolDeps,
} from '@sess/interactions';
import type { TSchema } from 'typebox';
import { PLUGIN_PROFILE, readPluginConfig } from '../config/read-plugin-config.ts';
import { checkArguments, isFullForm } from './check-arguments.ts';
import {
  SESS_ASK_DESCRIPTION,
  SESS_COMPLETE_DESCRIPTION,
  SESS_PUBLISH_DESCRIPTION,
  SESS_RESPONSE_DESCRIPTION,
  STOP_AND_CONTINUE_LINE,
} from './descriptions.ts';
import { createPluginScope, USER_AGENT } from './plugin-scope.ts';
import { buildParameterSchemas, OPENCLAW_TOOL_NAMES, type OpenclawToolName } from './tool-schemas.ts';

/*
 * The four agent tools, each an OpenClaw `AgentTool` (`execute(toolCallId, params, signal)` →
 * `{ content, details }`) over the operations of @sess/interactions: the same verbs, states and
 * error codes as the MCP tools, over the HTTP backend with the Gateway's key and the file handle
 * store of sess-mcp in the plugin's state directory. `details` is `{ interaction }` or, for a
 * refusal, `{ error: { code, message, retryable, field?, limit?, length?, reason? } }` — the MCP
 * tools' `structuredContent`; OpenClaw marks a result with `error` as a failed call.
 */

/** A tool result as OpenClaw takes it: the text the model reads and the structured value. */
export interface SessToolResult {
  content: Array<{ type: 'text'; text: string }>;
  details: { interaction: InteractionResult } | { error: Record<string, unknown> };
}

/** One tool as `api.registerTool` takes it. */
export interface SessAgentTool {
  name: OpenclawToolName;
  label: string;
  description: string;
  parameters: TSchema;
  /**
   * Runs before OpenClaw checks the arguments against `parameters`: refuses them with the tool's
   * own INVALID_ARGUMENTS (thrown as an Error whose message is the error result's JSON text).
   */
  prepareArguments(params: unknown): unknown;
  execute(toolCallId: string, params: unknown, signal?: AbortSignal): Promise<SessToolResult>;
}

export interface SessToolsOptions {
  /** The Gateway's environment (SESS_API_KEY, SESS_API_ORIGIN …), read when a tool is called. */
  env: Record<string, string | undefined>;
  /** OpenClaw's state directory; the records live in `<it>/sess`. */
  openclawStateDir: string;
  /** One line per call: tool, handle, outcome and time only — never arguments, links, keys or answers. */
  log?: ((line: string) => void) | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  now?: (() => Date) | undefined;
}

const LABELS: Record<OpenclawToolName, string> = {
  sess_ask: 'Ask the person',
  sess_response: "Read the person's answer",
  sess_publish: 'Show the person the next step',
  sess_complete: 'Finish with the answer',
};

const DESCRIPTIONS: Record<OpenclawToolName, string> = {
  sess_ask: SESS_ASK_DESCRIPTION,
  sess_response: SESS_RESPONSE_DESCRIPTION,
  sess_publish: SESS_PUBLISH_DESCRIPTION,
  sess_complete: SESS_COMPLETE_DESCRIPTION,
};

/** The operation a call runs: sess_ask is sess_request when it carries the full form. */
function operationOf(name: OpenclawToolName, params: unknown) {
  if (name === 'sess_ask') return OPERATIONS[isFullForm(params) ? 'sess_request' : 'sess_ask'];
  return OPERATIONS[name];
}

/** The lines for the agent before the JSON: a create's link lines; a read's stop line or an open Ask's. */
function leadLines(name: OpenclawToolName, interaction: InteractionResult): string[] {
  if (name === 'sess_ask') return interaction.humanUrl ? linkLines(interaction.humanUrl) : [];
  if (name !== 'sess_response') return [];
  if (interaction.ask) return interaction.state === 'waiting' ? [ASK_OPEN_LINE] : [];
  return interaction.state === 'waiting' || interaction.state === 'needs_resume' ? [STOP_AND_CONTINUE_LINE] : [];
}

function success(name: OpenclawToolName, interaction: InteractionResult): SessToolResult {
  const json = JSON.stringify({ interaction });
  const lines = leadLines(name, interaction);
  return {
    content: [{ type: 'text', text: lines.length > 0 ? `${lines.join('\n')}\n\n${json}` : json }],
    details: { interaction },
  };
}

function failure(error: SessError): SessToolResult {
  const details = { error: errorBody(error) };
  return { content: [{ type: 'text', text: JSON.stringify(details) }], details };
}

/** What OpenClaw reads of a tool before it is built: name, label, description, parameters. */
export interface SessToolMetadata {
  name: OpenclawToolName;
  label: string;
  description: string;
  parameters: TSchema;
}

/** The four tools' metadata, in order (the entry's `defineToolPlugin` declarations). */
export function describeSessTools(): SessToolMetadata[] {
  const parameters = buildParameterSchemas();
  return OPENCLAW_TOOL_NAMES.map((name) => ({
    name,
    label: LABELS[name],
    description: DESCRIPTIONS[name],
    parameters: parameters[name],
  }));
}

/**
 * Builds the four tools. Nothing is read or opened until the first call: the configuration and
 * the key come from `env` then (a bad value is that call's NOT_CONFIGURED), so the Gateway
 * starts, and lists the tools, whatever the environment holds.
 */
export function createSessTools(options: SessToolsOptions): SessAgentTool[] {
  const now = options.now ?? (() => new Date());
  let ready: { deps: ToolDeps; scope: () => Promise<RequestScope> } | undefined;

  function prepare() {
    if (ready) return ready;
    const config = readPluginConfig(options.env, options.openclawStateDir);
    const deps: ToolDeps = {
      backend: createHttpBackend({
        origin: config.origin,
        expectedWorkspaceId: config.expectedWorkspaceId,
        userAgent: USER_AGENT,
        fetch: options.fetch,
      }),
      receipts: createHttpReceipts({ origin: config.origin, issuer: config.receiptIssuer, fetch: options.fetch }),
      now,
      maxWaitMs: config.maxWaitMs,
    };
    const fileStore = createFileHandleStore({ stateDir: config.stateDir, profile: PLUGIN_PROFILE, now });
    ready = { deps, scope: createPluginScope({ config, env: options.env, fileStore, fetch: options.fetch }) };
    return ready;
  }

  /** One call, run as the MCP tools run theirs (`runTool`), in OpenClaw's result shape. */
  function execute(name: OpenclawToolName, params: unknown, signal: AbortSignal | undefined): Promise<SessToolResult> {
    const operation = operationOf(name, params);
    return runTool(name, operation, params, {
      open: async () => {
        const { deps, scope: resolveScope } = prepare();
        const scope = await resolveScope();
        if (operation.kind !== 'interaction') throw new TypeError(`${name} is not an interaction tool`);
        return { deps, scope };
      },
      requestSignal: signal,
      report: ({ handle, outcome, ms }) =>
        options.log?.(`sess-openclaw tool=${name}${handle ? ` handle=${handle}` : ''} outcome=${outcome} ms=${ms}`),
    }).then((outcome) => (outcome.ok ? success(name, outcome.value as InteractionResult) : failure(outcome.error)));
  }

  return describeSessTools().map(({ name, label, description, parameters }) => ({
    name,
    label,
    description,
    parameters,
    prepareArguments(params: unknown) {
      try {
        checkArguments(name, params ?? {});
      } catch (error) {
        const refusal = asSessError(error);
        options.log?.(`sess-openclaw tool=${name} outcome=${refusal.code} ms=0`);
        throw new Error(failure(refusal).content[0]!.text);
      }
      return params;
    },
    execute: (_toolCallId: string, params: unknown, signal?: AbortSignal) => execute(name, params, signal),
  }));
}
