import { type DbOrTx, formSessions } from '@sess/db';
import { eq } from 'drizzle-orm';

/**
 * Sets a form's assurance and the accounts it is for, straight in `form_sessions`: the tests of
 * the answer side use it, whatever the create path (the agent's argument, the person's floor)
 * would have written.
 */
export async function setFormAssurance(
  db: DbOrTx,
  sessionId: string,
  assurance: 'link' | 'account' | 'passkey',
  forUserIds: string[] | null,
): Promise<void> {
  await db.update(formSessions).set({ assurance, forUserIds }).where(eq(formSessions.id, sessionId));
}
