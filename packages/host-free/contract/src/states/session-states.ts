import { z } from 'zod';
import { defineStateMachine } from './state-machine.ts';

/*
 * A session's states. The runtime stores only three (`open`, `completed`, `withdrawn`, in
 * form_sessions.state); what an agent reads is derived on read from the stored state, whether the
 * current revision has an answer, and where the clock is (so no background job is needed for
 * expiry to be correct):
 *
 *   withdrawn → withdrawn;  completed → completed;  answered → answered (even after the end:
 *   an answer accepted in time stays answered);  past the end → expired;  otherwise waiting.
 *
 * An extendable link has a gap between its deadline and its end (`lapsed`): the person may ask
 * for more time, and an agent still reads `waiting`.
 */

/** What `form_sessions.state` holds. */
export const STORED_SESSION_STATES = ['open', 'completed', 'withdrawn'] as const;
export const StoredSessionStateSchema = z.enum(STORED_SESSION_STATES);
export type StoredSessionState = z.infer<typeof StoredSessionStateSchema>;

/** What moves a stored session (an answer, an extension and a publish keep it `open`). */
export type StoredSessionEvent = 'answered' | 'extended' | 'published' | 'completed' | 'withdrawn';

/**
 * The stored session's transition table. Every event needs an `open` session; the preconditions
 * on the derived state are the verbs' own (publish and complete need the current revision
 * answered, publish a link not past its end).
 */
export const STORED_SESSION_MACHINE = defineStateMachine<StoredSessionState, StoredSessionEvent>({
  name: 'session',
  states: STORED_SESSION_STATES,
  initial: ['open'],
  transitions: {
    /** A person's answer was accepted (an interaction's revision, or one respondent of an Ask). */
    answered: { from: ['open'], to: 'open' },
    /** The person asked for more time on a lapsed, extendable link. */
    extended: { from: ['open'], to: 'open' },
    /** The agent showed the next Surface at revision + 1. */
    published: { from: ['open'], to: 'open' },
    /** The agent finished with the answer; the page shows "Done". */
    completed: { from: ['open'], to: 'completed' },
    /** The agent no longer needs an answer (an Ask closes for everyone). */
    withdrawn: { from: ['open'], to: 'withdrawn' },
  },
});

/** Where the clock puts a link: taking answers, lapsed (extendable, past its deadline), or over for good. */
export const TIME_PHASES = ['open', 'lapsed', 'closed'] as const;
export type TimePhase = (typeof TIME_PHASES)[number];

/** An interaction as the agent reads it (`GET /v1/sessions/:id`): the seed's states plus `withdrawn`. */
export const SESSION_STATES = ['waiting', 'answered', 'completed', 'expired', 'withdrawn'] as const;
export const SessionStateSchema = z.enum(SESSION_STATES);
export type SessionState = z.infer<typeof SessionStateSchema>;

/** An Ask as the agent reads it: `waiting` while answers may still come, else `closed` (or `withdrawn`). */
export const ASK_STATES = ['waiting', 'closed', 'withdrawn'] as const;
export const AskStateSchema = z.enum(ASK_STATES);
export type AskState = z.infer<typeof AskStateSchema>;

/** What the person's page shows for an interaction link. */
export const LINK_STATES = ['open', 'answered', 'completed', 'withdrawn', 'lapsed', 'expired'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/** A row of `GET /v1/sessions`: an interaction's state, or an Ask's `waiting` / `closed`. */
export const SESSION_LIST_STATUSES = ['waiting', 'answered', 'completed', 'expired', 'withdrawn', 'closed'] as const;
export const SessionListStatusSchema = z.enum(SESSION_LIST_STATUSES);
export type SessionListStatus = z.infer<typeof SessionListStatusSchema>;

/** The facts an interaction's derived state depends on. */
export interface SessionFacts {
  stored: StoredSessionState;
  /** The current revision has an accepted answer. */
  answered: boolean;
  phase: TimePhase;
}

/** The agent's state of an interaction's current revision (the derivation rule above). */
export function deriveSessionState({ stored, answered, phase }: SessionFacts): SessionState {
  if (stored === 'withdrawn') return 'withdrawn';
  if (stored === 'completed') return 'completed';
  if (answered) return 'answered';
  return phase === 'closed' ? 'expired' : 'waiting';
}

/** The person's page state of an interaction link: as the agent's, with `open` / `lapsed` for `waiting`. */
export function deriveLinkState({ stored, answered, phase }: SessionFacts): LinkState {
  if (stored === 'withdrawn') return 'withdrawn';
  if (stored === 'completed') return 'completed';
  if (answered) return 'answered';
  return phase === 'open' ? 'open' : phase === 'lapsed' ? 'lapsed' : 'expired';
}

/** An Ask's state: withdrawn, or closed once completed, full (`max` answered) or past its end. */
export function deriveAskState({ stored, full, ended }: { stored: StoredSessionState; full: boolean; ended: boolean }): AskState {
  if (stored === 'withdrawn') return 'withdrawn';
  if (stored === 'completed' || full || ended) return 'closed';
  return 'waiting';
}

/** True when a read with wait has nothing to wait for: only `waiting` may still change by itself. */
export function isSettledSessionState(state: SessionState): boolean {
  return state !== 'waiting';
}
