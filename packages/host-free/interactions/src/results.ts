import {
  ASK_OPEN_LINE,
  type AskResult,
  decisionLine,
  type InteractionResult,
  linkLines,
  REWAIT_LINE,
  type ResponseResult,
} from '@sess/contract';
import { isSessError, SessError } from '@sess/core';

/** What a tool returns: @sess/contract's output types, the same the tools/list schemas are generated from. */
export type { AskResult, InteractionResult, ResponseResult };

/** Which lines for the agent come before a result's JSON: a create's, a read's, or none. */
export type ResultLead = 'create' | 'read' | 'none';

/** The lines for the agent before the JSON (the seed's "Every result is …" rule). */
function leadLines(interaction: InteractionResult, lead: ResultLead): string[] {
  if (lead === 'create') return interaction.humanUrl ? linkLines(interaction.humanUrl) : [];
  if (lead !== 'read') return [];
  if (interaction.ask) {
    const decision = interaction.ask.decision;
    const open = interaction.state === 'waiting' && decision?.outcome !== 'approved' && decision?.outcome !== 'rejected';
    return [...(decision ? [decisionLine(decision)] : []), ...(open ? [ASK_OPEN_LINE] : [])];
  }
  return interaction.state === 'waiting' || interaction.state === 'needs_resume' ? [REWAIT_LINE] : [];
}

/**
 * The text of a successful result: the same JSON as the structured result, after the two agent
 * lines of a create, or the re-wait line of a `sess_response` in `waiting` / `needs_resume` (an
 * Ask's own line while it is open). Every other result is the JSON alone.
 */
export function resultText(interaction: InteractionResult, lead: ResultLead): string {
  const json = JSON.stringify({ interaction });
  const lines = leadLines(interaction, lead);
  return lines.length > 0 ? `${lines.join('\n')}\n\n${json}` : json;
}

/** The wire body of a tool error: `{ code, message, retryable, field?, limit?, length?, reason? }`. */
export function errorBody(error: SessError): Record<string, unknown> {
  const body: Record<string, unknown> = { code: error.code, message: error.message, retryable: error.retryable };
  for (const key of ['field', 'limit', 'length', 'reason'] as const) {
    if (error.details[key] !== undefined) body[key] = error.details[key];
  }
  return body;
}

/**
 * Anything thrown that is not a SessError. The ports translate their own failures (a database
 * out of reach is `SESS_UNAVAILABLE` or `STATE_STORE_ERROR`, a lost commit `CommitFailure`),
 * so this is a fault of ours or of a dependency: generic and retryable, without claiming that
 * nothing changed, since nobody knows.
 */
export function asSessError(error: unknown): SessError {
  if (isSessError(error)) return error;
  return new SessError(
    'SESS_UNAVAILABLE',
    'Sess could not complete this call. Try again in a moment; sess_list and sess_response show where each interaction stands.',
    {},
    { cause: error },
  );
}
