import { STORED_SESSION_MACHINE, type StoredSessionEvent } from '@sess/contract';
import { SessError } from '@sess/core';
import { timePhase } from '../model/derive-state.ts';
import type { LockedSession } from './lock-session.ts';

/** `expected_revision` (If-Match): a whole number of at least 1. */
export function checkExpectedRevision(expected: number): void {
  if (!Number.isSafeInteger(expected) || expected < 1) {
    throw new SessError('INVALID_ARGUMENTS', 'The expected revision must be a whole number of at least 1.', {
      field: '/expected_revision',
    });
  }
}

/** The stored session's event each revision write is (see @sess/contract's `STORED_SESSION_MACHINE`). */
export const REVISION_WRITE_EVENTS = { publish: 'published', complete: 'completed' } as const satisfies Record<
  string,
  StoredSessionEvent
>;

/** Why a session the transition table does not let move takes no more steps. */
function notMovable(session: LockedSession['session']): SessError {
  switch (session.state) {
    case 'withdrawn':
      return new SessError('INVALID_STATE', `${session.id} was withdrawn; it takes no more steps.`, { state: 'withdrawn' });
    case 'completed':
      return new SessError('INVALID_STATE', `${session.id} is already completed.`, { state: 'completed' });
    case 'open':
      throw new Error(`unreachable: every revision write leaves an open session (${session.id})`);
  }
}

/**
 * The preconditions of publish and complete, in order: an interaction, in a stored state the
 * write's event may leave (open), at the expected revision, and answered with exactly that event.
 * Each refusal changes nothing.
 */
export function checkRevisionWrite(
  locked: LockedSession,
  expectedRevision: number,
  responseEventId: string,
  verb: keyof typeof REVISION_WRITE_EVENTS,
): void {
  const { session, answer } = locked;
  if (session.kind !== 'interaction') {
    throw new SessError('INVALID_STATE', `${session.id} is an Ask; ${verb} works on interactions only.`, { kind: 'ask' });
  }
  if (STORED_SESSION_MACHINE.next(session.state, REVISION_WRITE_EVENTS[verb]) === undefined) throw notMovable(session);
  if (expectedRevision !== session.currentRevision) {
    throw new SessError(
      'REVISION_MISMATCH',
      `The session is at revision ${session.currentRevision}, not ${expectedRevision}. Read it again and act on revision ${session.currentRevision}.`,
      { currentRevision: session.currentRevision },
    );
  }
  if (!answer) {
    throw new SessError(
      'INVALID_STATE',
      `Revision ${session.currentRevision} has no answer yet; wait for it before you ${verb}.`,
      { state: 'waiting', currentRevision: session.currentRevision },
    );
  }
  if (answer.id !== responseEventId) {
    throw new SessError('RESPONSE_MISMATCH', `response_event_id is not the answer of revision ${session.currentRevision}.`, {
      field: '/response_event_id',
      currentRevision: session.currentRevision,
    });
  }
}

/** Publishing needs a link a person can still use (lapsed is fine: they can ask for more time). */
export function checkPublishable(locked: LockedSession, now: Date): void {
  if (timePhase(locked.session, now) === 'closed') {
    throw new SessError(
      'INVALID_STATE',
      `${locked.session.id} has expired; nobody can answer a next step. Complete it instead.`,
      {
        state: 'expired',
      },
    );
  }
}
