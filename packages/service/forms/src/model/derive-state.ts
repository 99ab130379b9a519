import {
  type AskState,
  deriveAskState,
  deriveLinkState,
  deriveSessionState,
  isSettledSessionState,
  type LinkState,
  type SessionState,
  type TimePhase,
} from '@sess/contract';
import type { SessionRow } from './session-row.ts';

/*
 * Expiry is computed on read from the row and the clock, so no background job is needed for
 * it to be correct. The clock's rules (docs/contract/sess-mcp-readme.md, "Advanced: expires_in"):
 * - before `deadline_at` the link takes answers;
 * - past it but before `closes_at` (only an extendable link has such a gap) it is lapsed: the
 *   person may ask for more time, and an agent read still says `waiting`;
 * - from `closes_at` on it is expired for good, unless an answer was accepted before the end,
 *   which stays `answered`.
 * The states themselves and how they follow from the row are @sess/contract's
 * (`deriveSessionState`, `deriveLinkState`, `deriveAskState`).
 */

export type { AskState, LinkState, SessionState, TimePhase };

/** Where the clock puts a link: taking answers, lapsed (extendable), or over for good. */
export function timePhase(row: Pick<SessionRow, 'deadlineAt' | 'closesAt'>, now: Date): TimePhase {
  const t = now.getTime();
  if (t < row.deadlineAt.getTime()) return 'open';
  if (t < row.closesAt.getTime()) return 'lapsed';
  return 'closed';
}

/** The agent's state of the current revision, given whether it has an answer. */
export function sessionState(
  row: Pick<SessionRow, 'state' | 'deadlineAt' | 'closesAt'>,
  answered: boolean,
  now: Date,
): SessionState {
  return deriveSessionState({ stored: row.state, answered, phase: timePhase(row, now) });
}

/** True when a read with wait has nothing to wait for: only `waiting` may change. */
export function isSettled(state: SessionState): boolean {
  return isSettledSessionState(state);
}

/** What the person's page shows for an interaction link. */
export function linkState(row: Pick<SessionRow, 'state' | 'deadlineAt' | 'closesAt'>, answered: boolean, now: Date): LinkState {
  return deriveLinkState({ stored: row.state, answered, phase: timePhase(row, now) });
}

/**
 * An Ask as the agent reads it: `waiting` while answers may still come, else `closed` (or
 * `withdrawn`). A decided Ask takes no more answers, as a full one.
 */
export function askState(
  row: Pick<SessionRow, 'state' | 'closesAt' | 'askMax' | 'askAnswered'> & Partial<Pick<SessionRow, 'askDecision'>>,
  now: Date,
): AskState {
  return deriveAskState({
    stored: row.state,
    full: (row.askMax ?? 0) <= row.askAnswered || isDecided(row.askDecision),
    ended: now.getTime() >= row.closesAt.getTime(),
  });
}

/**
 * The next instant at which the derived state changes by the clock alone (a deadline or the
 * end), or null when nothing more happens by time. Waits use it so a wait returns when a link
 * expires even though no notification is sent for that.
 */
export function nextTimeChange(row: Pick<SessionRow, 'deadlineAt' | 'closesAt'>, now: Date): Date | null {
  const t = now.getTime();
  if (t < row.deadlineAt.getTime()) return row.deadlineAt;
  if (t < row.closesAt.getTime()) return row.closesAt;
  return null;
}

/** True once an Ask that decides has its outcome (approved or rejected). */
export function isDecided(decision: SessionRow['askDecision'] | undefined): decision is 'approved' | 'rejected' {
  return decision === 'approved' || decision === 'rejected';
}
