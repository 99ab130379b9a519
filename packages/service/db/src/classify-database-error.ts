import { databaseErrorFacts, errorChain, SessError } from '@sess/core';

/**
 * What a failure of the database means to a caller:
 * - `unavailable`: the database could not be reached, the connection was lost (a restart, a
 *   failover, a full server), or it was too busy to do the work in time. Retrying later can
 *   succeed. `unsent` is true when nothing the call would have written was written: the
 *   statement never reached the server (no connection was made for it, or one of our own bounds
 *   turned it away first), or the server refused it and rolled its transaction back (a lock or
 *   statement timeout); false when the connection died with the statement in flight, which —
 *   for a COMMIT — leaves its outcome unknown. `busy` is set when the database (or our own
 *   admission in front of it) was reachable but had no room for the call in time.
 * - `bad_input`: the request held characters PostgreSQL cannot store (NUL in text, `\u0000` in
 *   jsonb, an unpaired surrogate in JSON). The same request always fails.
 * - `other`: anything else (a constraint, a bug of ours, not a database error at all).
 */
export type DatabaseFailure = { kind: 'unavailable'; unsent: boolean; busy?: true } | { kind: 'bad_input' } | { kind: 'other' };

/** Seconds a client is told to wait (`Retry-After`) while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The one message of the bad-input net, on every face. */
export const UNSTORABLE_INPUT_MESSAGE =
  'This request contains characters Sess cannot store (NUL, or an unpaired surrogate). Remove them.';

/**
 * Driver codes of a connection attempt that failed: the server refused it, could not be found,
 * or did not answer in time. Nothing was sent; and the next attempt is likely to fail the same
 * way, which is what opens the breaker (`createBreaker`).
 */
const CONNECT_FAILED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'CONNECT_TIMEOUT',
]);
/**
 * SQLSTATEs a server answers a connection attempt with when it cannot take connections at all:
 * 57P03 cannot connect now (starting up, shutting down, in recovery), 08001 and 08004 (unable
 * to establish, rejected). 53300 (too many connections) is not one: the connections already
 * open still work.
 */
const CONNECT_REFUSED_STATES = new Set(['57P03', '08001', '08004']);
/** Driver codes of a statement that was never sent, the server never asked. */
const NOT_SENT = new Set([
  // postgres.js refuses queries on a pool that is ending, before sending them.
  'CONNECTION_ENDED',
  'PGLITE_CLOSED',
  // Our own bounds in front of the pool (pool-gate.ts, keyed-gate.ts, breaker.ts).
  'POOL_TIMEOUT',
  'POOL_QUEUE_FULL',
  'WRITES_BUSY',
  'DATABASE_DOWN',
]);
/** Of those, the ones that mean "busy" rather than "out of reach". */
const OUR_BUSY = new Set(['POOL_TIMEOUT', 'POOL_QUEUE_FULL', 'WRITES_BUSY']);
/** Driver codes of a connection lost with work on it: what was in flight has an unknown outcome. */
const CONNECTION_LOST = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  // A health check that got no answer in time (it writes nothing, but its query may be in flight).
  'PING_TIMEOUT',
]);

/**
 * SQLSTATEs of an unavailable server. Class 08 is a connection exception; 57P01 admin shutdown,
 * 57P02 crash shutdown, 57P03 cannot connect now (starting up, shutting down, in recovery),
 * 53300 too many connections. 57P03, 53300, 08001 and 08004 are raised while connecting, so
 * nothing was sent. 55P03 (lock_not_available: our `lock_timeout`) and 57014 (query_canceled:
 * our `statement_timeout`) fail the statement, and PostgreSQL rolls its transaction back — a
 * COMMIT whose deferred trigger timed out included — so nothing was changed.
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
function serverUnavailable(sqlState: string): DatabaseFailure | undefined {
  if (sqlState === '55P03' || sqlState === '57014') return { kind: 'unavailable', unsent: true, busy: true };
  if (CONNECT_REFUSED_STATES.has(sqlState) || sqlState === '53300') return { kind: 'unavailable', unsent: true };
  if (sqlState.startsWith('08') || sqlState === '57P01' || sqlState === '57P02') return { kind: 'unavailable', unsent: false };
  return undefined;
}

/** What a driver code says, if it is one of the above. */
function driverUnavailable(driverCode: string): DatabaseFailure | undefined {
  if (OUR_BUSY.has(driverCode)) return { kind: 'unavailable', unsent: true, busy: true };
  if (NOT_SENT.has(driverCode) || CONNECT_FAILED.has(driverCode)) return { kind: 'unavailable', unsent: true };
  if (CONNECTION_LOST.has(driverCode)) return { kind: 'unavailable', unsent: false };
  return undefined;
}

/**
 * 22021 invalid byte sequence (NUL in text), 22P05 untranslatable character (`\u0000` in jsonb),
 * and 22P02 invalid text representation when it is JSON's (a lone surrogate escape). 22P02 is
 * also a malformed uuid or number, which is our bug, not the request's: only JSON counts, told
 * by the server function that raised it.
 */
function isUnstorable(sqlState: string, routine: string | undefined, message: unknown): boolean {
  if (sqlState === '22021' || sqlState === '22P05') return true;
  if (sqlState !== '22P02') return false;
  if (routine) return /json/i.test(routine);
  // PGlite (and older servers) may not name the routine; the message names the type.
  return typeof message === 'string' && /\btype jsonb?\b/.test(message);
}

/**
 * The one classification of database failures, used by every face (/v1, the MCP tools and the
 * handle store, the answer pages, OAuth, the account pages, /readyz). It looks through the
 * `cause` chain (drizzle wraps the driver's error; our own errors wrap drizzle's), so it can be
 * given whatever was caught. Only database and driver errors count: a socket error from a fetch
 * of ours is `other`.
 */
export function classifyDatabaseError(error: unknown): DatabaseFailure {
  let unavailable: DatabaseFailure | undefined;
  for (const link of errorChain(error)) {
    if (!link.database) continue;
    const facts = databaseErrorFacts(link.error);
    if (facts.sqlState) {
      if (isUnstorable(facts.sqlState, facts.routine, (link.error as { message?: unknown }).message))
        return { kind: 'bad_input' };
      unavailable ??= serverUnavailable(facts.sqlState);
    }
    if (facts.driverCode) unavailable ??= driverUnavailable(facts.driverCode);
  }
  return unavailable ?? { kind: 'other' };
}

/**
 * True when `error` is a connection attempt the database refused or did not answer (see
 * `CONNECT_FAILED`, `CONNECT_REFUSED_STATES`): what opens the breaker.
 */
export function isConnectFailure(error: unknown): boolean {
  for (const link of errorChain(error)) {
    if (!link.database) continue;
    const { sqlState, driverCode } = databaseErrorFacts(link.error);
    if ((sqlState && CONNECT_REFUSED_STATES.has(sqlState)) || (driverCode && CONNECT_FAILED.has(driverCode))) return true;
  }
  return false;
}

/** The message of `SESS_UNAVAILABLE` for an unavailable database, saying "nothing was changed" only when that is known. */
export function unavailableMessage(failure: { unsent: boolean; busy?: true }): string {
  if (failure.busy) return 'Sess is busy just now; nothing was changed. Try again in a moment.';
  if (failure.unsent) return 'Sess cannot reach its database just now; nothing was changed. Try again in a moment.';
  return 'Sess cannot reach its database just now. Try again in a moment.';
}

/** True when `error` is the database being unreachable (see `classifyDatabaseError`). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return classifyDatabaseError(error).kind === 'unavailable';
}

/**
 * The SessError a JSON face answers for a database failure: `SESS_UNAVAILABLE` (503, retryable)
 * or `INVALID_ARGUMENTS` (400, the bad-input net); undefined for anything else. `unavailable`
 * replaces the default message (`unavailableMessage`).
 */
export function databaseSessError(error: unknown, options: { unavailable?: string } = {}): SessError | undefined {
  const failure = classifyDatabaseError(error);
  switch (failure.kind) {
    case 'unavailable':
      return new SessError('SESS_UNAVAILABLE', options.unavailable ?? unavailableMessage(failure), {}, { cause: error });
    case 'bad_input':
      return new SessError('INVALID_ARGUMENTS', UNSTORABLE_INPUT_MESSAGE, {}, { cause: error });
    case 'other':
      return undefined;
  }
}
