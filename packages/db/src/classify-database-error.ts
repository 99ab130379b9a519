import { databaseErrorFacts, errorChain, SessError } from '@sess/core';

/**
 * What a failure of the database means to a caller:
 * - `unavailable`: the database could not be reached, or the connection was lost (a restart, a
 *   failover, a full server). Retrying later can succeed. `unsent` is true when the statement
 *   cannot have reached the server (no connection was ever made for it), so nothing it would
 *   have written was written; false when the connection died with the statement in flight,
 *   which — for a COMMIT — leaves its outcome unknown.
 * - `bad_input`: the request held characters PostgreSQL cannot store (NUL in text, `\u0000` in
 *   jsonb, an unpaired surrogate in JSON). The same request always fails.
 * - `other`: anything else (a constraint, a bug of ours, not a database error at all).
 */
export type DatabaseFailure = { kind: 'unavailable'; unsent: boolean } | { kind: 'bad_input' } | { kind: 'other' };

/** Seconds a client is told to wait (`Retry-After`) while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The one message of the bad-input net, on every face. */
export const UNSTORABLE_INPUT_MESSAGE =
  'This request contains characters Sess cannot store (NUL, or an unpaired surrogate). Remove them.';

/** Driver codes of a connection that was never made: the statement was not sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'CONNECT_TIMEOUT',
  // postgres.js refuses queries on a pool that is ending, before sending them.
  'CONNECTION_ENDED',
  'PGLITE_CLOSED',
  // Our own wait for a free pool connection (open-database.ts).
  'POOL_TIMEOUT',
]);
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
 * nothing was sent.
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
function serverUnavailable(sqlState: string): DatabaseFailure | undefined {
  if (sqlState === '57P03' || sqlState === '53300' || sqlState === '08001' || sqlState === '08004') {
    return { kind: 'unavailable', unsent: true };
  }
  if (sqlState.startsWith('08') || sqlState === '57P01' || sqlState === '57P02') return { kind: 'unavailable', unsent: false };
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
    if (facts.driverCode && NOT_CONNECTED.has(facts.driverCode)) unavailable ??= { kind: 'unavailable', unsent: true };
    if (facts.driverCode && CONNECTION_LOST.has(facts.driverCode)) unavailable ??= { kind: 'unavailable', unsent: false };
  }
  return unavailable ?? { kind: 'other' };
}

/** True when `error` is the database being unreachable (see `classifyDatabaseError`). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return classifyDatabaseError(error).kind === 'unavailable';
}

/**
 * The SessError a JSON face answers for a database failure: `SESS_UNAVAILABLE` (503, retryable)
 * or `INVALID_ARGUMENTS` (400, the bad-input net); undefined for anything else. `unavailable`
 * replaces the default message, which claims nothing about what changed.
 */
export function databaseSessError(error: unknown, options: { unavailable?: string } = {}): SessError | undefined {
  const failure = classifyDatabaseError(error);
  switch (failure.kind) {
    case 'unavailable':
      return new SessError(
        'SESS_UNAVAILABLE',
        options.unavailable ?? 'Sess cannot reach its database just now. Try again in a moment.',
        {},
        { cause: error },
      );
    case 'bad_input':
      return new SessError('INVALID_ARGUMENTS', UNSTORABLE_INPUT_MESSAGE, {}, { cause: error });
    case 'other':
      return undefined;
  }
}
