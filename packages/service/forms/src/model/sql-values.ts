import { type SessionListStatus, STORED_SESSION_MACHINE, type StoredSessionEvent, type StoredSessionState } from '@sess/contract';
import { type SQL, sql } from 'drizzle-orm';

/** Helpers for raw SQL rows, which come back the same way on postgres.js and PGlite through drizzle. */

/** A timestamptz as returned by a raw query (text such as `2025-06-30 14:30:00.123+00`) or a Date. */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) throw new TypeError(`not a timestamp: ${String(value)}`);
  return date;
}

/** A Date as a parameter that both drivers pass through unchanged (use with `::timestamptz`). */
export function isoParam(date: Date): string {
  return date.toISOString();
}

/** A stored session state as an SQL literal: a constant of the contract, never input. */
export function stateLiteral(state: StoredSessionState | SessionListStatus): SQL {
  return sql.raw(`'${state}'`);
}

/**
 * The guard of a stored session's event in SQL: `column` is one of the states the transition
 * table lets `event` leave (`s.state = 'open'` for every event today).
 */
export function stateAllows(column: 's.state', event: StoredSessionEvent): SQL {
  const from = STORED_SESSION_MACHINE.transitions[event].from.map((state) => `'${state}'`);
  return sql.raw(from.length === 1 ? `${column} = ${from[0]}` : `${column} in (${from.join(', ')})`);
}
