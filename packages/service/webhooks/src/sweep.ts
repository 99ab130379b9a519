import { type Db, deleteInChunks } from '@sess/db';
import { sql } from 'drizzle-orm';

/** How long an ended delivery stays in the log. */
export const DELIVERY_LOG_DAYS = 30;

/** Deletes ended deliveries (delivered, failed, dropped) older than DELIVERY_LOG_DAYS, in chunks; pending ones stay. */
export async function sweepDeliveries(db: Db, at: Date): Promise<{ deliveries: number }> {
  const before = new Date(at.getTime() - DELIVERY_LOG_DAYS * 24 * 60 * 60_000).toISOString();
  const deliveries = await deleteInChunks(
    db,
    (limit) =>
      sql`delete from webhook_deliveries where id in (
            select id from webhook_deliveries
             where status <> 'pending' and created_at < ${before}::timestamptz
             limit ${limit})
          returning 1`,
  );
  return { deliveries };
}
