import { createSweeper, type Logger } from '@sess/core';
import type { Db } from '@sess/db';
import { deleteExpiredBrowserSessions } from '../browser-sessions/delete-browser-session.ts';
import { deleteExpiredChallenges } from '../passkeys/challenges.ts';
import { deleteStaleSignInAttempts } from '../sign-in/count-sign-in-attempt.ts';
import { deleteStaleSignupTokens } from '../signup/signup-tokens.ts';

/**
 * Deletes expired browser sessions, finished sign-in attempt windows and spent or expired
 * sign-up links and expired passkey challenges, at most once an hour per process, riding on sign-in traffic (see
 * `createSweeper`; every delete is one indexed statement).
 */
export function createAccountsSweeper(db: Db, logger: Logger, now: () => Date): () => Promise<void> | undefined {
  return createSweeper({
    name: 'accounts',
    logger,
    now,
    async sweep(at) {
      const sessions = await deleteExpiredBrowserSessions(db, at);
      const attempts = await deleteStaleSignInAttempts(db, at);
      const links = await deleteStaleSignupTokens(db, at);
      const challenges = await deleteExpiredChallenges(db, at);
      return { sessions, attempts, links, challenges };
    },
  });
}
