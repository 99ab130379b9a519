import { hashSecret, newId, newSecret } from '@sess/core';
import { browserSessions, type DbOrTx } from '@sess/db';
import { and, eq, lte } from 'drizzle-orm';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './session-cookie.ts';

export interface CreatedBrowserSession {
  sessionId: string;
  /** The cookie value: shown to the browser once, stored only as its SHA-256. */
  token: string;
  /** The absolute end; the cookie's Max-Age is taken from it. */
  expiresAt: Date;
}

/**
 * Starts a browser session for `userId`. The previous session of this browser (if the caller
 * passes it) is deleted in the same step: a sign-in always rotates the session, so a token
 * planted before sign-in (session fixation) is worth nothing after it. The user's own expired
 * sessions are swept here too, which bounds their number without a background job.
 */
export async function createBrowserSession(
  db: DbOrTx,
  input: { userId: string; now: Date; replaceSessionId?: string | undefined },
): Promise<CreatedBrowserSession> {
  const { userId, now } = input;
  const token = newSecret(32);
  const sessionId = newId('browserSession');
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
  const idleExpiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, expiresAt.getTime()));
  if (input.replaceSessionId) await db.delete(browserSessions).where(eq(browserSessions.id, input.replaceSessionId));
  await db.delete(browserSessions).where(and(eq(browserSessions.userId, userId), lte(browserSessions.idleExpiresAt, now)));
  await db.insert(browserSessions).values({
    id: sessionId,
    userId,
    tokenHash: hashSecret(token),
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt,
    expiresAt,
  });
  return { sessionId, token, expiresAt };
}
