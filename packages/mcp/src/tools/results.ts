import type { CallToolResult } from '@modelcontextprotocol/server';
import { isSessError, SessError } from '@sess/core';
import { classifyDatabaseError, UNSTORABLE_INPUT_MESSAGE } from '@sess/db';
import { ASK_OPEN_LINE, linkLines, REWAIT_LINE } from './descriptions.ts';

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

/** Which lines for the agent come before a result's JSON: a create's, a read's, or none. */
export type ResultLead = 'create' | 'read' | 'none';

/** The lines for the agent before the JSON (the seed's "Every result is …" rule). */
function leadLines(interaction: InteractionResult, lead: ResultLead): string[] {
  if (lead === 'create') return interaction.humanUrl ? linkLines(interaction.humanUrl) : [];
  if (lead !== 'read') return [];
  if (interaction.ask) return interaction.state === 'waiting' ? [ASK_OPEN_LINE] : [];
  return interaction.state === 'waiting' || interaction.state === 'needs_resume' ? [REWAIT_LINE] : [];
}

/**
 * A successful result: `structuredContent` carries `{ interaction }`; the text is the same JSON,
 * after the two agent lines of a create, or the re-wait line of a `sess_response` in `waiting` /
 * `needs_resume` (an Ask's own line while it is open). Every other result is the JSON alone.
 */
export function interactionResult(interaction: InteractionResult, lead: ResultLead): CallToolResult {
  const structured = { interaction };
  const json = JSON.stringify(structured);
  const lines = leadLines(interaction, lead);
  const text = lines.length > 0 ? `${lines.join('\n')}\n\n${json}` : json;
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

/**
 * Anything thrown that is not a SessError. A database that cannot be reached is
 * `SESS_UNAVAILABLE` (retryable): "nothing was changed" only when the statement never reached
 * it, otherwise the call may have taken effect and the message says how to find out. Characters
 * the database cannot store are `INVALID_ARGUMENTS` (not retryable). Everything else is a fault
 * of ours or of a dependency: generic, retryable.
 */
export function asSessError(error: unknown): SessError {
  if (isSessError(error)) return error;
  const failure = classifyDatabaseError(error);
  if (failure.kind === 'bad_input') return new SessError('INVALID_ARGUMENTS', UNSTORABLE_INPUT_MESSAGE, {}, { cause: error });
  if (failure.kind === 'unavailable' && !failure.unsent) {
    return new SessError(
      'SESS_UNAVAILABLE',
      'Sess lost its database connection during this call, so it may or may not have taken effect. Try again in a moment; sess_list and sess_response show where each interaction stands.',
      {},
      { cause: error },
    );
  }
  return new SessError(
    'SESS_UNAVAILABLE',
    failure.kind === 'unavailable'
      ? 'Sess cannot reach its database just now. Nothing was changed; try again in a moment.'
      : 'Sess could not complete this call. Nothing was changed; try again in a moment.',
    {},
    {
      cause: error,
    },
  );
}
