import { sql } from 'drizzle-orm';
import { isoParam } from '../model/sql-values.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';

/**
 * Records the first time a link's page was opened in a browser (its `opened` event, written by
 * the trigger on `opened_at`). Only the first sets it; every later call changes nothing. The page
 * calls it for a browser's own navigation alone (`Sec-Fetch-Dest: document`), so a chat app's
 * link preview or a crawler does not count as the person opening it.
 */
export async function recordLinkOpened(runtime: FormsRuntime, sessionId: string): Promise<void> {
  await runtime.database.db.execute(
    sql`update form_sessions set opened_at = ${isoParam(runtime.now())}::timestamptz
         where id = ${sessionId} and opened_at is null and state = 'open'`,
  );
}
