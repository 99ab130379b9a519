import type { ToolName } from '@sess/contract';
import type { ToolCall } from './call.ts';
import type { InteractionResult, ResultLead } from './results.ts';
import { createPlanned, planAsk, planRequest } from './verbs/create-interaction.ts';
import { type ListedInteraction, listInteractions } from './verbs/list-interactions.ts';
import { cancelInteraction, completeInteraction, publishInteraction } from './verbs/mutate-interaction.ts';
import { readResponse } from './verbs/read-response.ts';

/** What sess_list returns. */
export interface ListResult {
  interactions: ListedInteraction[];
  nextCursor?: string;
}

/**
 * One operation as every host runs it: a verb over the two ports (the call carries the backend,
 * the bound store and the scope), and which lines for the agent lead its result's text.
 */
export type Operation =
  | { kind: 'interaction'; lead: ResultLead; run(call: ToolCall, args: unknown): Promise<InteractionResult> }
  | { kind: 'list'; run(call: ToolCall, args: unknown): Promise<ListResult> };

/** The seven operations by tool name. Hosts add only their transport and wire shapes. */
export const OPERATIONS: Readonly<Record<ToolName, Operation>> = {
  sess_ask: { kind: 'interaction', lead: 'create', run: (call, args) => createPlanned(call, planAsk(args)) },
  sess_request: { kind: 'interaction', lead: 'create', run: (call, args) => createPlanned(call, planRequest(args)) },
  sess_response: { kind: 'interaction', lead: 'read', run: readResponse },
  sess_publish: { kind: 'interaction', lead: 'none', run: publishInteraction },
  sess_complete: { kind: 'interaction', lead: 'none', run: completeInteraction },
  sess_list: { kind: 'list', run: listInteractions },
  sess_cancel: { kind: 'interaction', lead: 'none', run: cancelInteraction },
};
