import { type LoggerOptions, type Logger as PinoLogger, pino } from 'pino';
import { summarizeError } from './summarize-error.ts';
import { activeTracer, type Tracer } from './tracing.ts';

/**
 * Everything that must never reach a log line: credentials, codes, links and answers.
 * Pino paths match one level of wildcard, so each sensitive key is listed at the top level,
 * one level down and inside request headers.
 */
const SENSITIVE_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'idToken',
  'id_token',
  'key',
  'apiKey',
  'api_key',
  'secret',
  'clientSecret',
  'client_secret',
  'password',
  'code',
  'code_verifier',
  'codeVerifier',
  'humanUrl',
  'link',
  'url',
  'answer',
  'answers',
  'data',
  'receipt',
  'privateJwk',
];

export const REDACT_PATHS: string[] = [
  ...SENSITIVE_KEYS,
  ...SENSITIVE_KEYS.map((k) => `*.${k}`),
  ...['authorization', 'cookie', 'set-cookie', 'x-api-key'].flatMap((h) => [
    `req.headers.${h}`,
    `res.headers.${h}`,
    `headers.${h}`,
  ]),
];

/** One level's method: an object first (with a dotted `event`), then an optional message. */
export type LogMethod = (entry: object, message?: string) => void;

/**
 * What code logs through: the four levels it writes at, and nothing of pino's. A structural type,
 * so a package's options can name it without naming pino (the published `@sess.si/mcp/http`
 * declarations), and a host may pass any logger of this shape. `createLogger`'s pino logger is one.
 */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

/**
 * The process's root logger as `createLogger` makes it: pino's, for the one place that needs more
 * than the four levels (apps/server's per-request child, built only when a line is written).
 */
export type RootLogger = PinoLogger;

/**
 * Every error-valued field of a log line, whatever its key, in the form `summarizeError` gives
 * (the `err` key has the serializer; this catches `error`, `cause` and the rest).
 */
function summarizeErrorFields(object: Record<string, unknown>): Record<string, unknown> {
  let out = object;
  for (const key in object) {
    const value = object[key];
    if (key !== 'err' && value instanceof Error) {
      if (out === object) out = { ...object };
      out[key] = summarizeError(value);
    }
  }
  return out;
}

/** No ids outside a span: one shared object, never merged into (see `mergeTraceIds`), nothing made per line. */
const NO_TRACE = Object.freeze({});

/** The active span's `traceId` and `spanId`, added to every line written inside one. */
function traceIdsOf(tracer: Tracer): () => object {
  return () => tracer.ids() ?? NO_TRACE;
}

/** pino's own merge (the line's fields over the mixin's, into the mixin's fresh object), but none outside a span. */
function mergeTraceIds(mergeObject: object, ids: object): object {
  return ids === NO_TRACE ? mergeObject : Object.assign(ids, mergeObject);
}

/**
 * The one root logger. Children carry `requestId` and workspace; events use a dotted `event`.
 * Errors go through `summarizeError` wherever they are put: as `err`, under any other key, or
 * as the first argument (whose message pino would otherwise make the line's `msg`). With a
 * tracer installed (`installTracer`, before the logger is made) every line written inside a
 * span carries its `traceId` and `spanId`; without one the logger has no mixin at all.
 */
export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): RootLogger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    serializers: { err: summarizeError },
    formatters: { level: (label) => ({ level: label }), log: summarizeErrorFields },
    hooks: {
      // pino makes a line's `msg` from its error's message when the call gives none (an error
      // as the first argument, or an object with `err` and no message): that message may quote
      // SQL parameters. Such a line gets its `event` (or the error's type) as `msg` instead.
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        const apply = (a: unknown[]) => (method as (...a: unknown[]) => void).apply(this, a);
        if (typeof rest[0] === 'string') return first instanceof Error ? apply([{ err: first }, ...rest]) : apply(args);
        if (first instanceof Error) return apply([{ err: first }, String(summarizeError(first).type)]);
        if (first && typeof first === 'object' && 'err' in first) {
          const event = (first as { event?: unknown }).event;
          return apply([first, typeof event === 'string' ? event : 'error']);
        }
        return apply(args);
      },
    },
  };
  const tracer = activeTracer();
  if (tracer) {
    config.mixin = traceIdsOf(tracer);
    config.mixinMergeStrategy = mergeTraceIds;
  }
  return options.destination ? pino(config, options.destination) : pino(config);
}
