import { z } from 'zod';
import { defineStateMachine } from './state-machine.ts';

/*
 * The states of an interaction's handle (the record the tools keep for each sess_request /
 * sess_ask), and the one table of the events that move them. Derived from what the tools do:
 * the create (intent saved first, or intent and outcome in one transaction), sess_response (an
 * answer verified and re-confirmed, an expiry, a withdrawal, an Ask closing, a block), the saved
 * publish / complete / cancel once confirmed, and the owner's review (Retire).
 */

/** Every state a handle can be in. The first five are unfinished. */
export const HANDLE_STATES = [
  'create_intent',
  'create_unknown',
  'waiting',
  'answered',
  'blocked',
  'completed',
  'expired',
  'cancelled',
  'closed',
] as const;

export const HandleStateSchema = z.enum(HANDLE_STATES);
export type HandleState = z.infer<typeof HandleStateSchema>;

/** Unfinished handles: they count against the per-principal cap and are listed by `status: "open"`. */
export const UNFINISHED_HANDLE_STATES = ['create_intent', 'create_unknown', 'waiting', 'answered', 'blocked'] as const;

/** Finished handles: no event leaves them; they are deleted 30 days after their last change. */
export const FINISHED_HANDLE_STATES = ['completed', 'expired', 'cancelled', 'closed'] as const;

/** The states no tool can leave: they wait for the person's review (`/account/interactions`). */
export const REVIEW_HANDLE_STATES = ['blocked', 'create_unknown'] as const;

const unfinished: ReadonlySet<HandleState> = new Set(UNFINISHED_HANDLE_STATES);

/** True for a handle that still counts against the cap (see `UNFINISHED_HANDLE_STATES`). */
export function isUnfinishedHandleState(state: HandleState): boolean {
  return unfinished.has(state);
}

/** What moves a handle. */
export type HandleEvent =
  | 'create_saved'
  | 'create_unknown'
  | 'create_rejected'
  | 'answered'
  | 'published'
  | 'completed'
  | 'expired'
  | 'withdrawn'
  | 'cancelled'
  | 'closed'
  | 'blocked'
  | 'retired_by_owner';

/**
 * The handle's transition table. A handle is written first as `create_intent` (the intent saved
 * before a create is sent), or directly as `waiting` when the create and its handle commit in one
 * transaction (hosted).
 */
export const HANDLE_MACHINE = defineStateMachine<HandleState, HandleEvent>({
  name: 'handle',
  states: HANDLE_STATES,
  initial: ['create_intent', 'waiting'],
  transitions: {
    /** The create went through and its outcome (session, link, deadline) is saved on the handle. */
    create_saved: { from: ['create_intent'], to: 'waiting' },
    /** The create was sent and its outcome was lost: only the owner can settle it. */
    create_unknown: { from: ['create_intent'], to: 'create_unknown' },
    /** The runtime refused the create: no session exists (blocked reason `create_rejected`). */
    create_rejected: { from: ['create_intent'], to: 'cancelled' },
    /** sess_response verified the answer's receipt and re-read the session at that revision. */
    answered: { from: ['waiting'], to: 'answered' },
    /** A saved sess_publish was confirmed: the next revision waits for its answer. */
    published: { from: ['answered'], to: 'waiting' },
    /** A saved sess_complete was confirmed. */
    completed: { from: ['answered'], to: 'completed' },
    /** sess_response found the link closed for good without an answer. */
    expired: { from: ['waiting'], to: 'expired' },
    /** sess_response found the session withdrawn (outside this handle's own sess_cancel). */
    withdrawn: { from: ['waiting'], to: 'cancelled' },
    /** A saved sess_cancel was confirmed. */
    cancelled: { from: ['waiting', 'answered'], to: 'cancelled' },
    /** sess_response found an Ask that takes no more answers (expired, or `max` answered). */
    closed: { from: ['waiting'], to: 'closed' },
    /**
     * No tool may go on: the session moved on after the answer, a receipt failed verification,
     * or the runtime refused a saved publish / complete / cancel.
     */
    blocked: { from: ['waiting', 'answered'], to: 'blocked' },
    /** The person retired it on their review page (its form is withdrawn first). */
    retired_by_owner: { from: ['blocked', 'create_unknown'], to: 'cancelled' },
  },
});
