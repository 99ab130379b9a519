import { describe, expect, it } from 'vitest';
import { SessError } from './errors.ts';
import {
  databaseErrorFacts,
  ERROR_CAUSE_DEPTH,
  errorChain,
  isDatabaseError,
  markDatabaseError,
  summarizeError,
} from './summarize-error.ts';

/** The shapes the drivers really produce (see packages/service/db/test/database-errors.test.ts for the real ones). */
class DrizzleQueryError extends Error {
  constructor(
    readonly query: string,
    readonly params: unknown[],
    cause: unknown,
  ) {
    super(`Failed query: ${query}\nparams: ${params}`, { cause });
  }
}
class PostgresError extends Error {
  override name = 'PostgresError';
  constructor(fields: Record<string, unknown>) {
    super(String(fields.message));
    Object.assign(this, fields);
  }
}
const SECRET = 'answer-value-4fj2k';

function uniqueViolation(): Error {
  const pg = new PostgresError({
    message: `duplicate key value violates unique constraint "form_sessions_pkey" (${SECRET})`,
    severity: 'ERROR',
    code: '23505',
    detail: `Key (id)=(${SECRET}) already exists.`,
    where: `SQL function with ${SECRET}`,
    table_name: 'form_sessions',
    constraint_name: 'form_sessions_pkey',
  });
  Object.defineProperty(pg, 'parameters', { value: [SECRET], enumerable: false });
  return new DrizzleQueryError('insert into form_sessions values ($1)', [SECRET], pg);
}

describe('summarizeError', () => {
  it('logs a failed statement by class, SQLSTATE, constraint and table only: no query, parameters, detail, message or stack', () => {
    const summary = summarizeError(uniqueViolation());
    expect(summary).toEqual({
      type: 'DrizzleQueryError',
      database: true,
      cause: {
        type: 'PostgresError',
        database: true,
        sqlState: '23505',
        constraint: 'form_sessions_pkey',
        table: 'form_sessions',
      },
    });
    expect(JSON.stringify(summary)).not.toContain(SECRET);
  });

  it('keeps the driver code of a lost connection (postgres.js and the socket)', () => {
    const closed = Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
    Object.defineProperty(closed, 'query', { value: 'select $1', enumerable: false });
    expect(summarizeError(closed)).toEqual({ type: 'Error', database: true, driverCode: 'CONNECTION_CLOSED' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
    markDatabaseError(refused);
    expect(summarizeError(refused)).toEqual({ type: 'Error', database: true, driverCode: 'ECONNREFUSED', syscall: 'connect' });
  });

  it('names a closed PGlite without its message', () => {
    expect(summarizeError(new DrizzleQueryError('select 1', [], new Error('PGlite is closed')))).toEqual({
      type: 'DrizzleQueryError',
      database: true,
      cause: { type: 'Error', database: true, driverCode: 'PGLITE_CLOSED' },
    });
  });

  it('keeps the message and the stack frames of an error that is not the database’s, and summarises its database cause', () => {
    const wrapped = new SessError('STATE_STORE_ERROR', 'The handle store could not be read.', {}, { cause: uniqueViolation() });
    const summary = summarizeError(wrapped);
    expect(summary).toMatchObject({
      type: 'SessError',
      message: 'The handle store could not be read.',
      errorCode: 'STATE_STORE_ERROR',
    });
    expect(summary.stack).toMatch(/^SessError\n\s+at /);
    expect(summary.cause).toMatchObject({ type: 'DrizzleQueryError', database: true });
    expect(JSON.stringify(summary)).not.toContain(SECRET);
  });

  it('drops the message of a SyntaxError (JSON.parse quotes its input) and logs a thrown non-error by its type only', () => {
    let parseError: unknown;
    try {
      JSON.parse(`{"a": ${SECRET}`);
    } catch (error) {
      parseError = error;
    }
    expect(JSON.stringify(summarizeError(parseError))).not.toContain(SECRET);
    expect(summarizeError(SECRET)).toEqual({ type: 'string' });
    expect(summarizeError({ message: SECRET })).toEqual({ type: 'object' });
  });

  it('follows causes at most ERROR_CAUSE_DEPTH links, and survives a cycle', () => {
    let error: Error = new Error('root');
    for (let i = 0; i < ERROR_CAUSE_DEPTH + 3; i++) error = new Error(`level ${i}`, { cause: error });
    let depth = 0;
    for (let s = summarizeError(error); s.cause; s = s.cause as Record<string, unknown>) depth++;
    expect(depth).toBe(ERROR_CAUSE_DEPTH + 1);
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(summarizeError(a)).toMatchObject({ cause: { cause: { circular: true } } });
  });
});

describe('isDatabaseError / databaseErrorFacts / errorChain', () => {
  it('recognises drizzle, postgres.js, PGlite and marked errors, and nothing else', () => {
    expect(isDatabaseError(uniqueViolation())).toBe(true);
    expect(isDatabaseError(Object.assign(new Error('x'), { code: '22021', severity: 'ERROR', name: 'error' }))).toBe(true);
    expect(isDatabaseError(Object.assign(new Error('x'), { code: 'CONNECT_TIMEOUT' }))).toBe(true);
    expect(isDatabaseError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isDatabaseError(new TypeError('x'))).toBe(false);
    expect(isDatabaseError('x')).toBe(false);
  });

  it('tells a SQLSTATE from a system code', () => {
    expect(databaseErrorFacts({ code: '57P01', severity: 'FATAL' })).toEqual({ sqlState: '57P01' });
    expect(databaseErrorFacts({ code: '57014' })).toEqual({ sqlState: '57014' });
    expect(databaseErrorFacts({ code: 'EPIPE' })).toEqual({ driverCode: 'EPIPE' });
  });

  it('walks the cause chain and marks everything under a database error as the database’s', () => {
    const chain = [...errorChain(new SessError('INTERNAL', 'x', {}, { cause: uniqueViolation() }))];
    expect(chain.map((link) => [link.depth, link.database])).toEqual([
      [0, false],
      [1, true],
      [2, true],
    ]);
  });
});
