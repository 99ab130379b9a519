import { hashSecret } from '@sess/core';
import { browserSessions, type DbOrTx, users } from '@sess/db';
import { and, eq, gt, sql } from 'drizzle-orm';
import { readSessionTokens, SESSION_IDLE_MS } from './session-cookie.ts';

/** Who a browser is signed in as. */
export interface BrowserSession {
  sessionId: string;
  userId: string;
  email: string;
  /** The language this person saved for Sess's pages (`users.locale`), or null. */
  locale: string | null;
}

// Moving the idle expiry on every request would turn each page view into a write; once a
// minute is precise enough for a limit measured in days.
const TOUCH_AFTER_MS = 60_000;

/**
 * The live browser session named by the `sess_session` cookie in `cookieHeader`, or null
 * (no cookie, unknown token, idle or absolute expiry passed). The token is looked up by its
 * SHA-256, never compared in the clear. Reading a live session extends its idle expiry
 * (capped by the absolute one).
 */
export async function readBrowserSession(
  db: DbOrTx,
  cookieHeader: string | undefined,
  now: Date,
): Promise<BrowserSession | null> {
  for (const token of readSessionTokens(cookieHeader)) {
    const [row] = await db
      .select({
        sessionId: browserSessions.id,
        userId: browserSessions.userId,
        email: users.email,
        locale: users.locale,
        lastSeenAt: browserSessions.lastSeenAt,
      })
      .from(browserSessions)
      .innerJoin(users, eq(users.id, browserSessions.userId))
      .where(and(eq(browserSessions.tokenHash, hashSecret(token)), gt(browserSessions.idleExpiresAt, now)))
      .limit(1);
    if (!row) continue;
    if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_AFTER_MS) {
      await db
        .update(browserSessions)
        .set({
          lastSeenAt: now,
          idleExpiresAt: sql`least(${new Date(now.getTime() + SESSION_IDLE_MS).toISOString()}::timestamptz, ${browserSessions.expiresAt})`,
        })
        .where(eq(browserSessions.id, row.sessionId));
    }
    return { sessionId: row.sessionId, userId: row.userId, email: row.email, locale: row.locale };
  }
  return null;
}
