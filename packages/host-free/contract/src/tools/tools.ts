import type { JsonSchemaObject } from '@sess/surface';
import type { z } from 'zod';
import { toolJsonSchema } from '../json-schema/to-json-schema.ts';
import {
  SESS_ASK_DESCRIPTION,
  SESS_CANCEL_DESCRIPTION,
  SESS_COMPLETE_DESCRIPTION,
  SESS_LIST_DESCRIPTION,
  SESS_PUBLISH_DESCRIPTION,
  SESS_REQUEST_DESCRIPTION,
  SESS_RESPONSE_DESCRIPTION,
} from './descriptions.ts';
import {
  SessAskInputSchema,
  SessCancelInputSchema,
  SessCompleteInputSchema,
  SessListInputSchema,
  SessPublishInputSchema,
  SessRequestInputSchema,
  SessResponseInputSchema,
} from './tool-inputs.ts';
import { InteractionOutputSchema, ListResultSchema } from './tool-outputs.ts';

/** The tool names, in the order tools/list shows them. */
export const TOOL_NAMES = [
  'sess_ask',
  'sess_request',
  'sess_response',
  'sess_publish',
  'sess_complete',
  'sess_list',
  'sess_cancel',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** MCP tool annotations (hints to the client, never relied on for security). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One tool as every host lists it: name, title, description, hints, and its zod input and output. */
export interface ToolContract {
  name: ToolName;
  title: string;
  description: string;
  annotations: ToolHints;
  input: z.ZodType;
  output: z.ZodType;
}

const creates: ToolHints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

/** The seven tools. */
export const TOOLS: Readonly<Record<ToolName, ToolContract>> = {
  sess_ask: {
    name: 'sess_ask',
    title: 'Ask a person a short question',
    description: SESS_ASK_DESCRIPTION,
    annotations: creates,
    input: SessAskInputSchema,
    output: InteractionOutputSchema,
  },
  sess_request: {
    name: 'sess_request',
    title: 'Ask a person with a full form',
    description: SESS_REQUEST_DESCRIPTION,
    annotations: creates,
    input: SessRequestInputSchema,
    output: InteractionOutputSchema,
  },
  sess_response: {
    name: 'sess_response',
    title: "Read the person's answer",
    description: SESS_RESPONSE_DESCRIPTION,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: SessResponseInputSchema,
    output: InteractionOutputSchema,
  },
  sess_publish: {
    name: 'sess_publish',
    title: 'Show the person the next step',
    description: SESS_PUBLISH_DESCRIPTION,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: SessPublishInputSchema,
    output: InteractionOutputSchema,
  },
  sess_complete: {
    name: 'sess_complete',
    title: 'Finish with the answer',
    description: SESS_COMPLETE_DESCRIPTION,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: SessCompleteInputSchema,
    output: InteractionOutputSchema,
  },
  sess_list: {
    name: 'sess_list',
    title: 'List your open interactions',
    description: SESS_LIST_DESCRIPTION,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: SessListInputSchema,
    output: ListResultSchema,
  },
  sess_cancel: {
    name: 'sess_cancel',
    title: 'Withdraw a form',
    description: SESS_CANCEL_DESCRIPTION,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    input: SessCancelInputSchema,
    output: InteractionOutputSchema,
  },
};

/** A tool's `inputSchema` as tools/list serves it: generated once, frozen, shared. */
export function toolInputJsonSchema(name: ToolName): JsonSchemaObject {
  return toolJsonSchema(TOOLS[name].input);
}

/** A tool's `outputSchema` as tools/list serves it: generated once, frozen, shared. */
export function toolOutputJsonSchema(name: ToolName): JsonSchemaObject {
  return toolJsonSchema(TOOLS[name].output);
}

/** One entry of tools/list. */
export interface ListedTool {
  name: ToolName;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  outputSchema: JsonSchemaObject;
  annotations: ToolHints;
}

/** tools/list's `tools`, in order: what every MCP host serves. */
export function listedTools(): ListedTool[] {
  return TOOL_NAMES.map((name) => ({
    name,
    title: TOOLS[name].title,
    description: TOOLS[name].description,
    inputSchema: toolInputJsonSchema(name),
    outputSchema: toolOutputJsonSchema(name),
    annotations: TOOLS[name].annotations,
  }));
}
