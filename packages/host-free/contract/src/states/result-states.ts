import { z } from 'zod';

/**
 * `interaction.state` in a tool result. `needs_resume` is a wait cut short (the client went away
 * or the call's deadline came first): nothing changed, call sess_response again. `closed` is an
 * Ask that takes no more answers.
 */
export const RESULT_STATES = ['waiting', 'needs_resume', 'answered', 'completed', 'expired', 'closed', 'cancelled'] as const;

export const ResultStateSchema = z.enum(RESULT_STATES);
export type ResultState = z.infer<typeof ResultStateSchema>;
