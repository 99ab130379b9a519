/**
 * What of an error may reach a log line. A failed statement's error carries the statement and
 * its parameters (drizzle's `DrizzleQueryError` has `.query` and `.params` and quotes both in
 * its message and stack; postgres.js adds `query`, `parameters`, `detail` and `where`, and its
 * messages can quote values), and under the group commit those parameters are other tenants'
 * forms. So a database or driver error is logged by its class, SQLSTATE, constraint and table,
 * and the driver's own code (postgres.js `CONNECTION_CLOSED`, `ECONNREFUSED`, …) — never its
 * message, stack or fields. Any other error keeps its message and its stack frames.
 */

/** How many `cause` links one summary follows; deeper causes are cut off (`truncated`). */
export const ERROR_CAUSE_DEPTH = 5;

/** The codes postgres.js gives its own errors (connection state and client-side refusals). */
const POSTGRES_JS_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'COPY_IN_PROGRESS',
  'MAX_PARAMETERS_EXCEEDED',
  'NOT_TAGGED_CALL',
  'SASL_SIGNATURE_MISMATCH',
  'UNDEFINED_VALUE',
  'UNSAFE_TRANSACTION',
  'AUTH_TYPE_NOT_IMPLEMENTED',
  'MESSAGE_NOT_SUPPORTED',
]);
const DATABASE_CLASSES = new Set(['DrizzleQueryError', 'DrizzleError', 'TransactionRollbackError', 'PostgresError']);
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** A code that names a condition (`ECONNREFUSED`, `CONNECT_TIMEOUT`, `ERR_…`), never free text. */
const CODE_WORD = /^[A-Z][A-Z0-9_]{1,63}$/;
// PGlite says it is shut with a plain Error; its text is fixed and quotes nothing.
const PGLITE_CLOSED = /^PGlite is clos(ed|ing)$/;
const DATABASE_MARK = Symbol.for('sess.databaseError');

type Fields = Record<PropertyKey, unknown>;

/**
 * Marks an error that came out of the database driver but carries no sign of it (postgres.js
 * rejects a transaction's BEGIN with the bare socket error), so it is summarised and classified
 * as a database error.
 */
export function markDatabaseError(error: unknown): void {
  if (error && typeof error === 'object' && !Object.isFrozen(error)) {
    Object.defineProperty(error, DATABASE_MARK, { value: true, enumerable: false, configurable: true });
  }
}

/** True when `value` is an error of the database or its driver (drizzle, postgres.js, PGlite). */
export function isDatabaseError(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const fields = value as Fields;
  if (fields[DATABASE_MARK] === true) return true;
  const type = typeOf(value);
  if (DATABASE_CLASSES.has(type) || DATABASE_CLASSES.has(String(fields.name))) return true;
  // drizzle's and postgres.js's way of pinning the statement to the error.
  if (Object.hasOwn(value, 'query') || Object.hasOwn(value, 'params') || Object.hasOwn(value, 'parameters')) return true;
  const code = fields.code;
  if (typeof code === 'string' && (POSTGRES_JS_CODES.has(code) || (SQLSTATE.test(code) && 'severity' in fields))) return true;
  return typeof fields.message === 'string' && PGLITE_CLOSED.test(fields.message);
}

/** The database facts of one error (no values): what a log line and the classification may use. */
export interface DatabaseErrorFacts {
  /** The PostgreSQL SQLSTATE (`23505`, `57P01`, …). */
  sqlState?: string;
  /** The driver's or the system's own code: `CONNECTION_CLOSED`, `ECONNREFUSED`, `PGLITE_CLOSED`, … */
  driverCode?: string;
  constraint?: string;
  table?: string;
  /** The server function that raised it (`json_errsave_error`): a name in PostgreSQL's source, never data. */
  routine?: string;
}

/** The facts of a database error (call only on one `isDatabaseError` accepted, or on its causes). */
export function databaseErrorFacts(value: unknown): DatabaseErrorFacts {
  const facts: DatabaseErrorFacts = {};
  if (!value || typeof value !== 'object') return facts;
  const fields = value as Fields;
  const code = fields.code;
  // A server error has a severity; postgres.js's own 57014 (a cancel) has none but starts with digits.
  // Five capitals without either (`EPIPE`) are a system code.
  if (typeof code === 'string' && SQLSTATE.test(code) && ('severity' in fields || /^\d\d/.test(code))) facts.sqlState = code;
  else if (typeof code === 'string' && CODE_WORD.test(code)) facts.driverCode = code;
  if (!facts.driverCode && typeof fields.message === 'string' && PGLITE_CLOSED.test(fields.message)) {
    facts.driverCode = 'PGLITE_CLOSED';
  }
  const constraint = word(fields.constraint ?? fields.constraint_name);
  if (constraint) facts.constraint = constraint;
  const table = word(fields.table ?? fields.table_name);
  if (table) facts.table = table;
  const routine = word(fields.routine);
  if (routine) facts.routine = routine;
  return facts;
}

/**
 * Every error in `error`'s `cause` chain (and the first few of an AggregateError's `errors`),
 * outermost first, at most `ERROR_CAUSE_DEPTH` links deep, each with whether it is inside a
 * database error (and so to be treated as one).
 */
export function* errorChain(error: unknown): Generator<{ error: unknown; database: boolean; depth: number }> {
  const pending: Array<{ error: unknown; database: boolean; depth: number }> = [{ error, database: false, depth: 0 }];
  const seen = new Set<unknown>();
  while (pending.length > 0) {
    const next = pending.shift()!;
    if (seen.has(next.error)) continue;
    seen.add(next.error);
    const database = next.database || isDatabaseError(next.error);
    yield { error: next.error, database, depth: next.depth };
    if (!next.error || typeof next.error !== 'object' || next.depth >= ERROR_CAUSE_DEPTH) continue;
    const fields = next.error as Fields;
    if (fields.cause !== undefined) pending.push({ error: fields.cause, database, depth: next.depth + 1 });
    if (Array.isArray(fields.errors)) {
      for (const inner of fields.errors.slice(0, 3)) pending.push({ error: inner, database, depth: next.depth + 1 });
    }
  }
}

/**
 * The one form in which any error reaches a log line (the root logger's `err` serializer).
 * A database or driver error — or anything it wraps — becomes `{ type, sqlState?, driverCode?,
 * constraint?, table? }`; any other error `{ type, message, errorCode?, stack }` with the stack
 * reduced to its frames (its first line repeats the message). `cause` is followed
 * `ERROR_CAUSE_DEPTH` links deep. A thrown value that is not an error is logged by its type only.
 */
export function summarizeError(value: unknown): Record<string, unknown> {
  return summarize(value, 0, false, new Set());
}

function summarize(value: unknown, depth: number, insideDatabase: boolean, seen: Set<unknown>): Record<string, unknown> {
  if (!value || typeof value !== 'object') return { type: value === null ? 'null' : typeof value };
  if (seen.has(value)) return { type: typeOf(value), circular: true };
  seen.add(value);
  const fields = value as Fields;
  const database = insideDatabase || isDatabaseError(value);
  const out: Record<string, unknown> = { type: typeOf(value) };
  if (database) {
    out.database = true;
    const facts = databaseErrorFacts(value);
    if (facts.sqlState) out.sqlState = facts.sqlState;
    if (facts.driverCode) out.driverCode = facts.driverCode;
    if (facts.constraint) out.constraint = facts.constraint;
    if (facts.table) out.table = facts.table;
    const syscall = word(fields.syscall);
    if (syscall) out.syscall = syscall;
  } else if (value instanceof Error) {
    // A SyntaxError from JSON.parse quotes the text it could not parse.
    if (!(value instanceof SyntaxError)) out.message = value.message;
    if (typeof fields.code === 'string' && CODE_WORD.test(fields.code)) out.errorCode = fields.code;
    const frames = typeof value.stack === 'string' ? value.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
    if (frames.length > 0) out.stack = `${out.type}\n${frames.slice(0, 25).join('\n')}`;
  }
  if (fields.cause !== undefined) {
    out.cause = depth < ERROR_CAUSE_DEPTH ? summarize(fields.cause, depth + 1, database, seen) : { truncated: true };
  }
  if (Array.isArray(fields.errors) && fields.errors.length > 0 && depth < ERROR_CAUSE_DEPTH) {
    out.errors = fields.errors.slice(0, 3).map((inner) => summarize(inner, depth + 1, database, seen));
  }
  return out;
}

function typeOf(value: object): string {
  const ctor = (value as { constructor?: { name?: unknown } }).constructor?.name;
  // A minified class name (PGlite's DatabaseError is `O`) says nothing; its `name` may.
  if (typeof ctor === 'string' && ctor.length > 2 && ctor !== 'Object' && /^[A-Za-z_$][\w$]{0,63}$/.test(ctor)) return ctor;
  const name = (value as { name?: unknown }).name;
  if (name === 'error' && 'severity' in value) return 'DatabaseError';
  return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(name) ? name : 'object';
}

/** A schema name (constraint, table, routine, syscall): an identifier, never free text. */
function word(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z_][\w$.]{0,127}$/.test(value) ? value : undefined;
}
