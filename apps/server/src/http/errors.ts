import { isSessError } from '@sess/core';
import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from './app-env.ts';

/**
 * The one place an HTTP error body is decided for JSON routes: a SessError becomes
 * `{ error: { code, message, retryable, … } }` with its registry status; anything else is a
 * generic 500 whose cause goes only to the log, tied to the request id.
 */
export const onError: ErrorHandler<AppEnv> = (error, c) => {
  const requestId = c.get('requestId');
  if (isSessError(error)) {
    return c.json({ error: error.toBody(), requestId }, error.status as 400);
  }
  if (error instanceof HTTPException && error.status < 500) {
    return c.json(
      { error: { code: 'INVALID_ARGUMENTS', message: error.message || 'Bad request.', retryable: false }, requestId },
      error.status,
    );
  }
  (c.get('logger') ?? console).error({ event: 'http.unhandled', err: error }, 'unhandled error');
  return c.json(
    {
      error: { code: 'INTERNAL', message: 'Something went wrong on our side. Try again in a moment.', retryable: true },
      requestId,
    },
    500,
  );
};

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  c.json({ error: { code: 'NOT_FOUND', message: 'There is nothing at this address.', retryable: false } }, 404);
