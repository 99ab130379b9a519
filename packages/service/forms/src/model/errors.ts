import { SessError } from '@sess/core';

/** A link that does not exist, or a session of another workspace: never says which. */
export function linkNotFound(): SessError {
  return new SessError('NOT_FOUND', 'This link does not exist. Check that it was copied whole.');
}

export function sessionNotFound(id: string): SessError {
  return new SessError('NOT_FOUND', `No session ${id} in this workspace.`, { sessionId: id });
}

export function askNotFound(id: string): SessError {
  return new SessError('NOT_FOUND', `No Ask ${id} in this workspace.`, { askId: id });
}

const CLOSED_MESSAGES: Record<string, string> = {
  completed: 'This form is done: the answer was received and nothing more is asked here.',
  withdrawn: 'This question was withdrawn: an answer is no longer needed.',
  lapsed: 'This link has lapsed. Ask for more time to answer it.',
  expired: 'This link has expired and no longer takes answers.',
  closed: 'This Ask is closed and no longer takes answers.',
};

/** An answer to an Ask that was decided before it came: nothing was written. */
export function alreadyDecided(decision: 'approved' | 'rejected'): SessError {
  return new SessError('LINK_CLOSED', `Already decided: this Ask was ${decision}, so your answer is no longer needed.`, {
    state: 'decided',
    decision,
  });
}

/** The link does not take answers now; `state` says why (the page branches on it). */
export function linkClosed(state: string): SessError {
  return new SessError('LINK_CLOSED', CLOSED_MESSAGES[state] ?? 'This link no longer takes answers.', { state });
}

/**
 * A chat answer (the form inside the agent's chat) where only the link may answer: an Ask, whose
 * link is for the people it was shared with, or a form created with `answer_in_chat: false`.
 */
export function answerInChatOff(kind: 'ask' | 'form'): SessError {
  const message =
    kind === 'ask'
      ? 'An Ask is answered on its own link only: open the link to answer.'
      : 'This form is answered on its link only: open the link to answer.';
  return new SessError('ANSWER_IN_CHAT_OFF', message, { kind });
}

export function alreadyAnswered(revision: number): SessError {
  return new SessError('ALREADY_ANSWERED', 'This question already has an answer; the first answer sent is the one kept.', {
    revision,
  });
}
