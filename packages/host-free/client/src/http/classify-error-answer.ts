import { ErrorResponseSchema } from '@sess/contract';
import { SessClientError } from '../errors/sess-client-error.ts';

export interface AnswerContext {
  operation: string;
  write: boolean;
  idempotencyKey: string | undefined;
  status: number;
  requestId: string | undefined;
  retryAfterSeconds: number | undefined;
}

interface LooseErrorBody {
  code: string;
  message: string;
  retryable: boolean;
  [key: string]: unknown;
}

/**
 * The `{ error: { code, message, retryable, … } }` of a /v1 error, by the contract's schema; a
 * body that has the three required members but a code this client does not know yet (a newer
 * server) is still Sess's error, not a protocol failure.
 */
function readErrorBody(json: unknown): LooseErrorBody | undefined {
  const parsed = ErrorResponseSchema.safeParse(json);
  if (parsed.success) return parsed.data.error;
  const error = (json as { error?: unknown } | null | undefined)?.error as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  if (typeof error.code !== 'string' || typeof error.message !== 'string' || typeof error.retryable !== 'boolean')
    return undefined;
  return error as LooseErrorBody;
}

const numberOrUndefined = (value: unknown) => (typeof value === 'number' ? value : undefined);
const stringOrUndefined = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * A non-2xx answer. Sess's own error is `api` (401 and 403 are `configuration`: the key is
 * missing, wrong or not allowed, which no retry fixes). A 5xx that is not Sess's error shape
 * comes from something in between (a proxy or load balancer): the request may or may not have
 * reached Sess, so a write is `unknown_outcome` and a read `transport`. Any other answer that does
 * not fit is `protocol`.
 */
export function classifyErrorAnswer(json: unknown, context: AnswerContext): SessClientError {
  const common = {
    operation: context.operation,
    status: context.status,
    idempotencyKey: context.idempotencyKey,
    requestId: context.requestId,
    sent: true,
  };
  const body = readErrorBody(json);
  if (body) {
    const details = {
      ...body,
      ...(context.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: context.retryAfterSeconds }),
    };
    const facts = {
      ...common,
      code: body.code,
      message: body.message,
      field: stringOrUndefined(body.field),
      limit: numberOrUndefined(body.limit),
      length: numberOrUndefined(body.length),
      reason: stringOrUndefined(body.reason),
      currentRevision: numberOrUndefined(body.currentRevision),
      details,
    };
    if (context.status === 401 || context.status === 403) {
      return new SessClientError({ ...facts, kind: 'configuration', retryable: false });
    }
    return new SessClientError({ ...facts, kind: 'api', retryable: body.retryable });
  }
  if (context.status >= 500) {
    const message = `HTTP ${context.status} without a Sess error body (a proxy or gateway answered).`;
    return context.write
      ? new SessClientError({
          ...common,
          kind: 'unknown_outcome',
          message: `${message} The write may have taken effect: repeat the call with the same idempotencyKey.`,
        })
      : new SessClientError({ ...common, kind: 'transport', message: `${message} Try again later.` });
  }
  if (context.status === 401 || context.status === 403) {
    return new SessClientError({ ...common, kind: 'configuration', message: `HTTP ${context.status}: the API key was refused.` });
  }
  return new SessClientError({
    ...common,
    kind: 'protocol',
    message: `HTTP ${context.status} with a body that is not a Sess error; is origin the Sess API?`,
  });
}
