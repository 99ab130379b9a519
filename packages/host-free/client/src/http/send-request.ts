import { IdempotencyKeySchema, idSchema } from '@sess/contract';
import { NEVER_EXPIRES, readWebBody } from '@sess/core';
import type { z } from 'zod';
import { SessClientError } from '../errors/sess-client-error.ts';
import { classifyErrorAnswer } from './classify-error-answer.ts';
import { classifyFetchFailure, type StopReason } from './classify-fetch-failure.ts';

/** Per-call options of every method. */
export interface CallOptions {
  /** Ends the call with an `aborted` error (a write already sent may still take effect). */
  signal?: AbortSignal | undefined;
  /** This call's deadline in milliseconds, instead of the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
}

/** Per-call options of a write. */
export interface WriteOptions extends CallOptions {
  /**
   * The `Idempotency-Key` to send. Omit it and the client makes one (a UUID); either way the
   * result, and the error if the call fails, carry it: repeat a failed call with it to retry safely.
   */
  idempotencyKey?: string | undefined;
}

/** What every method returns: the parsed body and what the server said about the request. */
export interface SessResult<T> {
  data: T;
  /** The workspace the server named in `Sess-Workspace-Id`: bind receipt verification to it. */
  workspaceId: string;
  /** The server's `X-Request-Id`, to quote when asking for help. */
  requestId: string | undefined;
  status: number;
}

/** A write's result, with the `Idempotency-Key` it was sent with. */
export interface SessWriteResult<T> extends SessResult<T> {
  idempotencyKey: string;
}

/** The resolved client settings every request uses. */
export interface ClientConfig {
  origin: string;
  credential: () => Promise<string>;
  fetch: typeof globalThis.fetch | undefined;
  timeoutMs: number;
  userAgent: string;
  expectedWorkspaceId: string | undefined;
}

/** One request as a method describes it. */
export interface RequestSpec<T> {
  operation: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with its ids already encoded. */
  path: string;
  query?: URLSearchParams | undefined;
  /** JSON body of a write (`{}` when omitted). */
  body?: unknown;
  ifMatch?: number | undefined;
  schema: z.ZodType<T>;
  /** How long the server may hold the request on purpose (`wait_ms`), added to the deadline. */
  serverWaitMs?: number | undefined;
}

/** Largest response body read; a session list of 100 rows or an Ask with every answer is far below. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const WORKSPACE_HEADER = 'sess-workspace-id';
const WorkspaceIdSchema = idSchema('workspace', 'The workspace the API key acts in.');
/** A bearer credential: visible ASCII only, so it can never break the header it travels in. */
const CREDENTIAL = /^[\x21-\x7e]{1,4096}$/;

function configurationError(operation: string, message: string, cause?: unknown): SessClientError {
  return new SessClientError({ kind: 'configuration', operation, message, cause });
}

async function resolveCredential(config: ClientConfig, operation: string): Promise<string> {
  let credential: unknown;
  try {
    credential = await config.credential();
  } catch (error) {
    if (error instanceof SessClientError) throw error;
    throw configurationError(operation, 'The credential provider failed; nothing was sent.', error);
  }
  if (typeof credential !== 'string' || !CREDENTIAL.test(credential)) {
    throw configurationError(operation, 'The API key is missing or not a bearer token (visible ASCII, no spaces).');
  }
  return credential;
}

/** Checks a caller's key, or makes one: a fresh UUID per logical write. */
export function resolveIdempotencyKey(operation: string, key: string | undefined): string {
  if (key === undefined) return crypto.randomUUID();
  if (!IdempotencyKeySchema.safeParse(key).success) {
    throw configurationError(operation, 'idempotencyKey must be 1-255 visible ASCII characters (a UUID is ideal).');
  }
  return key;
}

/** The body as text, or undefined when it is over `MAX_RESPONSE_BYTES`; a broken stream throws what it raised. */
async function readCapped(response: Response): Promise<string | undefined> {
  // The exchange's own timer bounds the read (it aborts the fetch), so the reader needs no deadline.
  const read = await readWebBody(response.body, MAX_RESPONSE_BYTES, NEVER_EXPIRES);
  if (read.kind === 'ok') return read.text;
  if (read.kind === 'aborted') throw read.cause;
  return undefined; // too large (a read with no deadline never times out)
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  return value !== null && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : undefined;
}

/**
 * Sends one /v1 request and returns its parsed answer, or throws a `SessClientError` of the
 * seed's kinds. Writes (POST) carry `Idempotency-Key`; publish and complete `If-Match`. The
 * deadline covers the whole exchange, body included; the caller's signal can end it sooner.
 * Redirects are not followed: the API key must go to the configured origin and nowhere else.
 */
async function exchange<T>(
  config: ClientConfig,
  spec: RequestSpec<T>,
  options: WriteOptions = {},
): Promise<SessResult<T> & { idempotencyKey: string | undefined }> {
  const { operation } = spec;
  const write = spec.method !== 'GET';
  const idempotencyKey = write ? resolveIdempotencyKey(operation, options.idempotencyKey) : undefined;
  const notSent = (kind: 'aborted' | 'configuration', message: string) =>
    new SessClientError({ kind, operation, message, sent: false, idempotencyKey });
  if (options.signal?.aborted) throw notSent('aborted', 'The request was aborted before it was sent.');
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw notSent('configuration', 'timeoutMs must be a positive number.');
  const credential = await resolveCredential(config, operation);

  const headers = new Headers({
    accept: 'application/json',
    authorization: `Bearer ${credential}`,
    'user-agent': config.userAgent,
  });
  if (idempotencyKey !== undefined) headers.set('idempotency-key', idempotencyKey);
  if (spec.ifMatch !== undefined) headers.set('if-match', `"${spec.ifMatch}"`);
  let body: string | undefined;
  if (spec.method === 'POST') {
    body = JSON.stringify(spec.body ?? {});
    headers.set('content-type', 'application/json');
  }
  const url = new URL(spec.path, config.origin);
  if (spec.query) url.search = spec.query.toString();

  // One controller ends the exchange: our deadline or the caller's signal, whichever comes first.
  const controller = new AbortController();
  let stop: StopReason;
  const timer = setTimeout(
    () => {
      stop = 'timeout';
      controller.abort();
    },
    timeoutMs + (spec.serverWaitMs ?? 0),
  );
  const onAbort = () => {
    stop ??= 'aborted';
    controller.abort();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let response: Response | undefined;
  let text: string | undefined;
  try {
    // Resolved per call, so a fetch installed after the client was made (instrumentation) is used.
    const fetchImpl = config.fetch ?? globalThis.fetch;
    response = await fetchImpl(url, { method: spec.method, headers, body, signal: controller.signal, redirect: 'manual' });
    text = await readCapped(response);
  } catch (error) {
    throw classifyFetchFailure(error, stop, {
      operation,
      write,
      idempotencyKey,
      answered: response !== undefined,
      status: response?.status,
      requestId: response?.headers.get('x-request-id') ?? undefined,
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }

  const requestId = response.headers.get('x-request-id') ?? undefined;
  const { status } = response;
  const context = { operation, write, idempotencyKey, status, requestId };
  if (status === 0 || (status >= 300 && status < 400)) {
    throw new SessClientError({
      ...context,
      kind: 'configuration',
      sent: true,
      message: `Sess answered with a redirect (HTTP ${status}); set origin to the API origin itself.`,
    });
  }
  if (text === undefined) {
    throw new SessClientError({
      ...context,
      kind: 'protocol',
      sent: true,
      message: `The answer is over ${MAX_RESPONSE_BYTES} bytes.`,
    });
  }
  const json = parseJson(text);
  if (status < 200 || status >= 300) {
    throw classifyErrorAnswer(json, { ...context, retryAfterSeconds: retryAfterSeconds(response.headers) });
  }

  const protocol = (message: string, code?: string) =>
    new SessClientError({
      ...context,
      kind: 'protocol',
      ...(code ? { code } : {}),
      sent: true,
      message: write ? `${message} The write was accepted (HTTP ${status}).` : message,
    });
  const workspaceHeader = response.headers.get(WORKSPACE_HEADER);
  let workspaceId: string;
  if (workspaceHeader === null) {
    if (config.expectedWorkspaceId === undefined) {
      // The seed's VERIFICATION_CONTEXT_MISSING: without a trusted workspace no receipt can be checked.
      throw protocol(
        'Sess did not name the workspace (Sess-Workspace-Id); set expectedWorkspaceId for such a server.',
        'VERIFICATION_CONTEXT_MISSING',
      );
    }
    workspaceId = config.expectedWorkspaceId;
  } else if (!WorkspaceIdSchema.safeParse(workspaceHeader).success) {
    throw protocol('Sess-Workspace-Id is not a workspace id.');
  } else if (config.expectedWorkspaceId !== undefined && workspaceHeader !== config.expectedWorkspaceId) {
    throw new SessClientError({
      ...context,
      kind: 'configuration',
      sent: true,
      message: 'The API key acts in another workspace than expectedWorkspaceId.',
    });
  } else {
    workspaceId = workspaceHeader;
  }
  const parsed = spec.schema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('/') ?? '';
    throw protocol(`The answer of ${operation} does not fit the /v1 contract${where ? ` (at /${where})` : ''}.`);
  }
  return { data: parsed.data, workspaceId, requestId, status, idempotencyKey };
}

/** A read (GET): see `exchange`. */
export async function sendRead<T>(
  config: ClientConfig,
  spec: Omit<RequestSpec<T>, 'method' | 'body' | 'ifMatch'>,
  options?: CallOptions,
): Promise<SessResult<T>> {
  const { data, workspaceId, requestId, status } = await exchange(config, { ...spec, method: 'GET' }, options);
  return { data, workspaceId, requestId, status };
}

/** A write (POST, with `Idempotency-Key`): see `exchange`. */
export async function sendWrite<T>(
  config: ClientConfig,
  spec: Omit<RequestSpec<T>, 'method' | 'serverWaitMs'>,
  options?: WriteOptions,
): Promise<SessWriteResult<T>> {
  const { data, workspaceId, requestId, status, idempotencyKey } = await exchange(config, { ...spec, method: 'POST' }, options);
  return { data, workspaceId, requestId, status, idempotencyKey: idempotencyKey! };
}

/** A delete (DELETE, with `Idempotency-Key` and no body): see `exchange`. */
export async function sendDelete<T>(
  config: ClientConfig,
  spec: Omit<RequestSpec<T>, 'method' | 'serverWaitMs' | 'body' | 'ifMatch'>,
  options?: WriteOptions,
): Promise<SessWriteResult<T>> {
  const { data, workspaceId, requestId, status, idempotencyKey } = await exchange(config, { ...spec, method: 'DELETE' }, options);
  return { data, workspaceId, requestId, status, idempotencyKey: idempotencyKey! };
}
