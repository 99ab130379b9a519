import type { Logger } from '@sess/core';
import type { Db } from '@sess/db';
import { deleteExpiredBrowserSessions } from '../browser-sessions/delete-browser-session.ts';
import { deleteStaleSignInAttempts } from '../sign-in/count-sign-in-attempt.ts';
import { deleteStaleSignupTokens } from '../signup/signup-tokens.ts';

const EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes expired browser sessions, finished sign-in attempt windows and spent or expired
 * sign-up links, at most once an hour per process, riding on sign-in traffic instead of a
 * timer (nothing to stop at shutdown; every delete is one indexed statement). Never throws;
 * returns the sweep's promise, or undefined when it is not yet time.
 */
export function createAccountsSweeper(db: Db, logger: Logger, now: () => Date): () => Promise<void> | undefined {
  let last = Number.NEGATIVE_INFINITY;
  let running = false;
  return function sweepAccounts() {
    const at = now();
    if (running || at.getTime() - last < EVERY_MS) return undefined;
    last = at.getTime();
    running = true;
    return (async () => {
      const sessions = await deleteExpiredBrowserSessions(db, at);
      const attempts = await deleteStaleSignInAttempts(db, at);
      const links = await deleteStaleSignupTokens(db, at);
      if (sessions + attempts + links > 0)
        logger.info({ event: 'accounts.swept', sessions, attempts, links }, 'expired rows deleted');
    })()
      .catch((error: unknown) => logger.warn({ event: 'accounts.sweep_failed', err: error }, 'sweep failed'))
      .finally(() => {
        running = false;
      });
  };
}
