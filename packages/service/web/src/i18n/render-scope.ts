import { Messages, messagesFor } from './messages.ts';

/*
 * The messages of the page being rendered. Sess's pages render synchronously (see
 * render-document.ts), so one module-level slot, set for the length of one render and restored
 * after it, is all a component needs to find its language: no render can interleave with another.
 */

const english = messagesFor('en');
let current: Messages = english;

/** Runs `render` with `messages` as the language of every component it renders. */
export function inLanguage<T>(messages: Messages, render: () => T): T {
  const previous = current;
  current = messages;
  try {
    return render();
  } finally {
    current = previous;
  }
}

/** The language of the page being rendered (English outside any `inLanguage`). */
export function useMessages(): Messages {
  return current;
}

export { Messages };
