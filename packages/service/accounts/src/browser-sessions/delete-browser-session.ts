import { browserSessions, type DbOrTx } from '@sess/db';
import { eq, lte } from 'drizzle-orm';

/** Ends one browser session (sign-out): the row goes, so the cookie is worthless even if kept. */
export async function deleteBrowserSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db.delete(browserSessions).where(eq(browserSessions.id, sessionId));
}

/** Ends every browser session of a user (e.g. after a password change). */
export async function deleteBrowserSessionsOfUser(db: DbOrTx, userId: string): Promise<void> {
  await db.delete(browserSessions).where(eq(browserSessions.userId, userId));
}

/** Deletes sessions past their idle or absolute expiry; returns how many went. */
export async function deleteExpiredBrowserSessions(db: DbOrTx, now: Date): Promise<number> {
  const gone = await db
    .delete(browserSessions)
    .where(lte(browserSessions.idleExpiresAt, now))
    .returning({ id: browserSessions.id });
  return gone.length;
}
