import type { CallToolResult } from '@modelcontextprotocol/server';
import { isSessError, SessError } from '@sess/core';
import { linkLines, REWAIT_LINE } from './descriptions.ts';

/** A verified answer as a tool returns it. */
export interface ResponseResult {
  eventId: string;
  actionId: string;
  values: Record<string, unknown>;
  verified: true;
  actorAssurance: 'link_holder';
  answeredAt: string;
  receipt: string;
}

export interface AskResult {
  id: string;
  open: boolean;
  counts: { started: number; answered: number; max: number };
  answers?: Array<ResponseResult & { respondentId: string; name?: string }>;
}

/** `interaction` of every result but sess_list's. */
export interface InteractionResult {
  handle: string;
  revision: number;
  state: 'waiting' | 'needs_resume' | 'answered' | 'completed' | 'expired' | 'closed' | 'cancelled';
  humanUrl?: string;
  expiresAt?: string;
  response?: ResponseResult;
  ask?: AskResult;
}

/**
 * A successful result: `structuredContent` carries `{ interaction }`; the text is the same JSON,
 * after the two agent lines of a create or the re-wait line of `waiting` / `needs_resume`.
 */
export function interactionResult(interaction: InteractionResult, options: { created?: boolean } = {}): CallToolResult {
  const structured = { interaction };
  const json = JSON.stringify(structured);
  let lead: string[] = [];
  if (options.created && interaction.humanUrl) lead = linkLines(interaction.humanUrl);
  else if (interaction.state === 'waiting' || interaction.state === 'needs_resume') {
    if (!interaction.ask) lead = [REWAIT_LINE];
  }
  const text = lead.length > 0 ? `${lead.join('\n')}\n\n${json}` : json;
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A plain structured result (sess_list). */
export function structuredResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** The wire body of a tool error: `{ code, message, retryable, field?, limit?, length?, reason? }`. */
export function errorBody(error: SessError): Record<string, unknown> {
  const body: Record<string, unknown> = { code: error.code, message: error.message, retryable: error.retryable };
  for (const key of ['field', 'limit', 'length', 'reason'] as const) {
    if (error.details[key] !== undefined) body[key] = error.details[key];
  }
  return body;
}

/** An MCP tool error (`isError: true`) whose structured content is `{ error }`. */
export function toolError(error: SessError): CallToolResult {
  const structured = { error: errorBody(error) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/** Anything thrown that is not a SessError is a fault of ours or of a dependency: generic, retryable. */
export function asSessError(error: unknown): SessError {
  if (isSessError(error)) return error;
  return new SessError(
    'SESS_UNAVAILABLE',
    'Sess could not complete this call. Nothing was changed; try again in a moment.',
    {},
    {
      cause: error,
    },
  );
}
