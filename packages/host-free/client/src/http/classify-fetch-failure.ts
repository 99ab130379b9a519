import { SessClientError } from '../errors/sess-client-error.ts';

/**
 * Socket and TLS error codes that mean the request never left this machine: nothing reached the
 * server, so even a write is safe to send again (under any key). Everything else that breaks a
 * request after `fetch` started may have reached the server.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  // TLS fails in the handshake, before a byte of HTTP is written.
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** The first `code` along an error's cause chain (undici puts the socket's error in `cause`). */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ERR_INVALID_STATE') return code;
    // Happy-eyeballs connects fail with an AggregateError whose errors carry the codes.
    if (current instanceof AggregateError) {
      const inner = current.errors.map(errorCode).find((c) => c !== undefined);
      if (inner) return inner;
    }
    current = current.cause;
  }
  return undefined;
}

/** Why a request that had started did not get its answer, from the request's own point of view. */
export type StopReason = 'timeout' | 'aborted' | undefined;

export interface FailureContext {
  operation: string;
  write: boolean;
  idempotencyKey: string | undefined;
  /** True once response headers arrived: the server has certainly seen the request. */
  answered: boolean;
  status?: number | undefined;
  requestId?: string | undefined;
}

/**
 * Classifies a failure of `fetch` (or of reading the body) into the seed's SDK kinds:
 * the caller's abort is `aborted`; our deadline is `timeout` for a read and `unknown_outcome`
 * for a write; a connection that was never made is `transport` with `sent: false`; any other
 * break is `transport` for a read and `unknown_outcome` for a write (it may have taken effect).
 */
export function classifyFetchFailure(error: unknown, stop: StopReason, context: FailureContext): SessClientError {
  const common = {
    operation: context.operation,
    idempotencyKey: context.idempotencyKey,
    status: context.status,
    requestId: context.requestId,
    cause: error,
  };
  const lost = context.write
    ? ' The write may have taken effect: repeat the call with the same idempotencyKey to learn its outcome.'
    : '';
  if (stop === 'aborted') {
    return new SessClientError({ ...common, kind: 'aborted', sent: true, message: `The request was aborted.${lost}` });
  }
  if (stop === 'timeout') {
    return context.write
      ? new SessClientError({ ...common, kind: 'unknown_outcome', sent: true, message: `No answer from Sess in time.${lost}` })
      : new SessClientError({ ...common, kind: 'timeout', sent: true, message: 'No answer from Sess in time; try again.' });
  }
  const code = errorCode(error);
  if (!context.answered && code !== undefined && NOT_SENT_CODES.has(code)) {
    return new SessClientError({
      ...common,
      kind: 'transport',
      sent: false,
      reason: code,
      message: `Sess could not be reached (${code}); nothing was sent. Try again later.`,
    });
  }
  const what = code ? ` (${code})` : '';
  return context.write
    ? new SessClientError({
        ...common,
        kind: 'unknown_outcome',
        sent: true,
        reason: code,
        message: `The connection to Sess broke before its answer arrived${what}.${lost}`,
      })
    : new SessClientError({
        ...common,
        kind: 'transport',
        sent: true,
        reason: code,
        message: `The connection to Sess broke before its answer arrived${what}; try again.`,
      });
}
