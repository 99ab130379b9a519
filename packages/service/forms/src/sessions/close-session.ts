import type { StoredSessionState } from '@sess/contract';
import { type SQL, sql } from 'drizzle-orm';
import { isoParam, stateLiteral } from '../model/sql-values.ts';
import { FORM_EVENTS_CHANNEL, formEventPayload } from '../waits/waiter-hub.ts';

/** The closed states a write moves a session to, each with the column stamped with when. */
const STAMPED = { completed: 'completed_at', withdrawn: 'withdrawn_at' } as const satisfies Partial<
  Record<StoredSessionState, string>
>;

/**
 * ONE statement that moves a session the caller has locked (`lockSession`) to `state`, stamps
 * when, and wakes every wait on it (the NOTIFY is delivered on commit): the write's last
 * statement, sent together with its idempotency record (`Written.last`).
 */
export function closeSessionStatement(input: {
  workspaceId: string;
  sessionId: string;
  state: keyof typeof STAMPED;
  at: Date;
  revision: number;
}): SQL {
  return sql`with closed as (
      update form_sessions set state = ${stateLiteral(input.state)}, ${sql.raw(STAMPED[input.state])} = ${isoParam(input.at)}::timestamptz
       where id = ${input.sessionId} and workspace_id = ${input.workspaceId}
      returning id)
    select pg_notify(${FORM_EVENTS_CHANNEL}, ${formEventPayload(input.sessionId, input.revision)}) as notified from closed`;
}
