import { type Logger, type LoggerOptions, pino } from 'pino';

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

export type { Logger };

/** The one root logger. Children carry `requestId` and workspace; events use a dotted `event`. */
export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const config: LoggerOptions = {
    level: options.level ?? 'info',
    base: undefined,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}
