import type { JsonSchemaObject } from '@sess/surface';
import { z } from 'zod';
import { toolJsonSchema } from '../json-schema/to-json-schema.ts';
import type { ToolHints } from './tools.ts';

/*
 * The form inside the agent's chat (MCP Apps): what the view and the server say to each other.
 * Two app-only tools, listed only to a host that renders apps and hidden by it from the model
 * (`_meta.ui.visibility: ["app"]`), and the payload every result the view reads carries in its
 * `_meta`, where hosts hand it to the view and not to the model. The view's per-render token
 * travels there too: a model that calls a view tool anyway has no token and answers nothing.
 */

/** The key of the view's payload in a tool result's `_meta` (a reverse-DNS prefix of Sess's own). */
export const CHAT_VIEW_META_KEY = 'si.sess/view';

/** The app-only tools, in the order tools/list shows them (after the seven). */
export const VIEW_TOOL_NAMES = ['sess_view_answer', 'sess_view_status'] as const;
export type ViewToolName = (typeof VIEW_TOOL_NAMES)[number];

/** What a view's state is: the answer page's states, and `ask` for an Ask's shared link (never answered inline). */
export const CHAT_VIEW_STATES = ['open', 'answered', 'completed', 'withdrawn', 'expired', 'lapsed', 'ask'] as const;
export type ChatViewState = (typeof CHAT_VIEW_STATES)[number];

/** Longest view token: `v1.<expiry>.<43 characters>` with room to spare. */
export const VIEW_TOKEN_MAX_LENGTH = 128;

const viewTarget = {
  handle: z.string().min(1).max(64).describe('The handle of the form the view shows.'),
  revision: z.int().min(1).describe('The revision the view shows.'),
  token: z
    .string()
    .min(1)
    .max(VIEW_TOKEN_MAX_LENGTH)
    .describe("The view's token from the result it renders (_meta). Only the view holds one."),
};

/** A value as a form posts it: one string, or a list for a repeated name (checkboxes, a multi-select). */
const PostedValueSchema = z.union([z.string(), z.array(z.string()).max(200)]);

/** sess_view_answer: the person's answer, from the form in the chat. */
export const SessViewAnswerInputSchema = z.strictObject({
  ...viewTarget,
  action_id: z.string().min(1).max(64).optional().describe('The button the person pressed (its id).'),
  values: z.record(z.string(), PostedValueSchema).describe('The fields as the form posts them, by name.'),
});
export type SessViewAnswerInput = z.infer<typeof SessViewAnswerInputSchema>;

/** sess_view_status: what the form shows now (answered on the phone, a next step, closed…). */
export const SessViewStatusInputSchema = z.strictObject(viewTarget);
export type SessViewStatusInput = z.infer<typeof SessViewStatusInputSchema>;

/** What a result carries for the view, under `_meta[CHAT_VIEW_META_KEY]`. */
export const ChatViewPayloadSchema = z.object({
  v: z.literal(1),
  handle: z.string(),
  revision: z.int().min(1),
  state: z.enum(CHAT_VIEW_STATES),
  /** The form or status as the answer page renders it, made on the server from the same view model. */
  html: z.string(),
  /** The per-render token: present while the view may answer or ask for the status. */
  token: z.string().optional(),
  /** The private link, for "Answer on my phone" (ui/open-link) and the QR code. */
  link: z.string().optional(),
  /** Whether the view should keep asking for the status (the form can still change). */
  poll: z.boolean(),
  /** After an answer in the chat: what the view tells the agent (ui/message). */
  message: z.string().optional(),
});
export type ChatViewPayload = z.infer<typeof ChatViewPayloadSchema>;

/** One app-only tool as tools/list shows it (its `_meta` is added by the host that knows the resource). */
export interface ViewToolContract {
  name: ViewToolName;
  title: string;
  description: string;
  annotations: ToolHints;
  input: z.ZodType;
}

export const VIEW_TOOLS: Readonly<Record<ViewToolName, ViewToolContract>> = {
  sess_view_answer: {
    name: 'sess_view_answer',
    title: 'Answer the form shown in the chat',
    description:
      "Used by Sess's form inside the chat, never by the model: it sends the person's answer with the view's token. " +
      'To read an answer, call sess_response.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: SessViewAnswerInputSchema,
  },
  sess_view_status: {
    name: 'sess_view_status',
    title: 'Refresh the form shown in the chat',
    description:
      "Used by Sess's form inside the chat, never by the model: it reads what the form shows now with the view's token. " +
      'To read an answer, call sess_response.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: SessViewStatusInputSchema,
  },
};

/** One app-only tool's entry of tools/list, without `_meta`. */
export interface ListedViewTool {
  name: ViewToolName;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  annotations: ToolHints;
}

/** The app-only tools' tools/list entries, in order (their JSON Schemas generated from the zod ones). */
export function listedViewTools(): ListedViewTool[] {
  return VIEW_TOOL_NAMES.map((name) => ({
    name,
    title: VIEW_TOOLS[name].title,
    description: VIEW_TOOLS[name].description,
    inputSchema: toolJsonSchema(VIEW_TOOLS[name].input),
    annotations: VIEW_TOOLS[name].annotations,
  }));
}
