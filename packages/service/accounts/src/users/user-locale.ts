import { type DbOrTx, users } from '@sess/db';
import { type PageLanguage, pageLanguage, shippedLanguageFor } from '@sess/web';
import { eq } from 'drizzle-orm';

/**
 * The language a person saved for Sess's pages (`users.locale`), as a shipped language's tag,
 * or undefined when they never picked one (or it is no longer shipped). For anything that
 * speaks to the person away from a page: notification e-mails, pushes.
 */
export async function readSavedLanguage(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)).limit(1);
  return shippedLanguageFor(row?.locale);
}

/** Saves `tag` (a shipped language) as this one person's language. */
export async function saveLanguage(db: DbOrTx, userId: string, tag: string): Promise<void> {
  const shipped = shippedLanguageFor(tag);
  if (!shipped) return;
  await db.update(users).set({ locale: shipped }).where(eq(users.id, userId));
}

/**
 * The language of an account page for a signed-in person: their saved choice unless they just
 * picked another in the picker (`?lang=`), which is then saved to their account, so it follows
 * them to other browsers and to their e-mails.
 */
export async function accountPageLanguage(
  db: DbOrTx,
  request: Request,
  person: { userId: string; locale: string | null },
): Promise<PageLanguage> {
  const language = pageLanguage(request, { saved: person.locale });
  if (language.picked && language.picked !== person.locale) await saveLanguage(db, person.userId, language.picked);
  return language;
}
