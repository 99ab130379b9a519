import type { SessionRow } from './session-row.ts';

/*
 * Expiry is computed on read from the row and the clock, so no background job is needed for
 * it to be correct. The rules (sess-mcp-readme.md, "Advanced: expires_in"):
 * - before `deadline_at` the link takes answers;
 * - past it but before `closes_at` (only an extendable link has such a gap) it is lapsed: the
 *   person may ask for more time, and an agent read still says `waiting`;
 * - from `closes_at` on it is expired for good, unless an answer was accepted before the end,
 *   which stays `answered`.
 */

/** Where the clock puts a link: taking answers, lapsed (extendable), or over for good. */
export type TimePhase = 'open' | 'lapsed' | 'closed';

export function timePhase(row: Pick<SessionRow, 'deadlineAt' | 'closesAt'>, now: Date): TimePhase {
  const t = now.getTime();
  if (t < row.deadlineAt.getTime()) return 'open';
  if (t < row.closesAt.getTime()) return 'lapsed';
  return 'closed';
}

/** What an agent reads for an interaction (the seed's `interaction.state`, plus `withdrawn`). */
export type SessionState = 'waiting' | 'answered' | 'completed' | 'expired' | 'withdrawn';

/** The agent's state of the current revision, given whether it has an answer. */
export function sessionState(
  row: Pick<SessionRow, 'state' | 'deadlineAt' | 'closesAt'>,
  answered: boolean,
  now: Date,
): SessionState {
  if (row.state === 'withdrawn') return 'withdrawn';
  if (row.state === 'completed') return 'completed';
  if (answered) return 'answered';
  return timePhase(row, now) === 'closed' ? 'expired' : 'waiting';
}

/** True when a read with wait has nothing to wait for: only `waiting` may change. */
export function isSettled(state: SessionState): boolean {
  return state !== 'waiting';
}

/** What the person's page shows for an interaction link. */
export type LinkState = 'open' | 'answered' | 'completed' | 'withdrawn' | 'lapsed' | 'expired';

export function linkState(row: Pick<SessionRow, 'state' | 'deadlineAt' | 'closesAt'>, answered: boolean, now: Date): LinkState {
  if (row.state === 'withdrawn') return 'withdrawn';
  if (row.state === 'completed') return 'completed';
  if (answered) return 'answered';
  const phase = timePhase(row, now);
  return phase === 'open' ? 'open' : phase === 'lapsed' ? 'lapsed' : 'expired';
}

/** An Ask as the agent reads it: `waiting` while answers may still come, else `closed` (or `withdrawn`). */
export type AskState = 'waiting' | 'closed' | 'withdrawn';

export function askState(row: Pick<SessionRow, 'state' | 'closesAt' | 'askMax' | 'askAnswered'>, now: Date): AskState {
  if (row.state === 'withdrawn') return 'withdrawn';
  if (row.state === 'completed') return 'closed';
  if ((row.askMax ?? 0) <= row.askAnswered) return 'closed';
  return now.getTime() < row.closesAt.getTime() ? 'waiting' : 'closed';
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
