import { isSessError, type SessError } from '@sess/core';
import { databaseSessError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@sess/db';
import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from './app-env.ts';

/**
 * The one place an HTTP error body is decided for JSON routes: a SessError becomes
 * `{ error: { code, message, retryable, … } }` with its registry status (a 503 with
 * `Retry-After`); a database that cannot be reached is 503 `SESS_UNAVAILABLE`, and input the
 * database cannot store 400 `INVALID_ARGUMENTS` (see `classifyDatabaseError`); anything else is
 * a generic 500 whose cause goes only to the log, tied to the request id.
 */
export const onError: ErrorHandler<AppEnv> = (error, c) => {
  const requestId = c.get('requestId');
  const logger = c.get('logger') ?? console;
  if (isSessError(error)) return sessErrorResponse(c, error, requestId);
  if (error instanceof HTTPException && error.status < 500) {
    return c.json(
      { error: { code: 'INVALID_ARGUMENTS', message: error.message || 'Bad request.', retryable: false }, requestId },
      error.status,
    );
  }
  const database = databaseSessError(error);
  if (database) {
    logger.warn({ event: database.status === 503 ? 'http.database_unavailable' : 'http.unstorable_input', err: error });
    return sessErrorResponse(c, database, requestId);
  }
  logger.error({ event: 'http.unhandled', err: error }, 'unhandled error');
  return c.json(
    {
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Try again in a moment.', retryable: true },
      requestId,
    },
    500,
  );
};

function sessErrorResponse(c: Parameters<ErrorHandler<AppEnv>>[1], error: SessError, requestId: string) {
  if (error.status === 503) c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return c.json({ error: error.toBody(), requestId }, error.status as 400);
}

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  c.json({ error: { code: 'NOT_FOUND', message: 'There is nothing at this address.', retryable: false } }, 404);
