import { type Db, queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';

/*
 * The events the clock makes: an extendable link passing its deadline (`lapsed`), an
 * interaction's link ending unanswered (`expired`), an Ask reaching its end (`closed`). What an
 * agent reads is still derived on read (no job decides a state); this sweep only records when
 * the clock moved a form, at the instant it did. The triggers of migration 0018 keep each open
 * form's `clock_at` (its next such instant) and write the event when `clock_event` is set here,
 * in this statement's transaction. An interaction whose current revision is answered stays
 * answered: its clock stops until a publish starts it again.
 */

/** Forms recorded per statement, at most. */
const SWEEP_BATCH = 500;

/** Records the clock events due at `now`; returns how many forms it looked at (SWEEP_BATCH means: run again). */
export async function sweepClockEvents(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with due as (
          select s.id,
                 case when s.kind = 'interaction' and exists (
                             select 1 from form_answers f
                              where f.session_id = s.id and f.revision = s.current_revision and f.respondent_id is null)
                        then null
                      when s.clock_at < s.closes_at then 'lapsed'
                      when s.kind = 'ask' then 'closed'
                      else 'expired' end as next_event
            from form_sessions s
           where s.clock_at <= ${now.toISOString()}::timestamptz
           order by s.clock_at limit ${SWEEP_BATCH}
             for update of s skip locked)
        update form_sessions s
           set clock_event = coalesce(d.next_event, s.clock_event),
               -- Unchanged, the trigger moves clock_at on (to the end after a lapse, to none after the end);
               -- with nothing to record (answered, or recorded already) the clock stops here.
               clock_at = case when d.next_event is null or d.next_event is not distinct from s.clock_event then null
                               else s.clock_at end
          from due d where s.id = d.id
        returning s.id`,
  );
  return rows.length;
}
