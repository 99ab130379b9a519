import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { askExample, fullAsk, fullSurface, sampleSurface as seedSurface } from '@sess/surface/test-fixtures';
import { afterAll } from 'vitest';
import { sampleAskArguments, sampleSurface } from '../factories/forms.ts';
import { flushSecrets, logAuditDir, recordSecret, recordSecretLeaves, type SecretKind } from './capture.ts';

/*
 * The log audit's setup file, loaded into every test file of the integration projects: it
 * collects what the tests send and receive over HTTP — every leaf string of a request body,
 * credentials in headers, link tokens and codes in URLs, and the secrets of responses (links,
 * tokens, codes, keys, receipts, answers) — plus the texts of the shared fixtures, and writes
 * them to the run's audit directory when the file ends. Factories in the testkit record what
 * they make (passwords, API keys, link tokens, cookies) themselves.
 */

/** OAuth and MCP parameters that are public by definition: identifiers and protocol words, never secrets. */
const PUBLIC_PARAMETERS = new Set([
  'client_id',
  'redirect_uri',
  'redirect_uris',
  'response_type',
  'grant_type',
  'scope',
  'resource',
  'code_challenge_method',
  'token_endpoint_auth_method',
  'token_type_hint',
  'grant_types',
  'response_types',
  'application_type',
  'return_to',
  'iss',
  'error',
  'error_description',
  'jsonrpc',
  'method',
  'protocolVersion',
  // Filters of a list (`status=cancelled`, `kind=interaction`): enumeration words.
  'status',
  'kind',
  // The event types a webhook endpoint wants (`answered`, `opened`, …): enumeration words.
  'eventTypes',
  'event_types',
]);
/** Response fields whose values are secrets wherever they appear (nested too). */
const RESPONSE_SECRETS = new Set([
  'humanUrl',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'token',
  'key',
  'apiKey',
  'client_secret',
  'registration_access_token',
  'receipt',
  'respondentToken',
]);

function recordUrl(url: URL): void {
  const link = /\/s\/([^/?#]+)/.exec(url.pathname)?.[1];
  if (link) recordSecret(decodeURIComponent(link), 'link');
  // The waiting page's long-poll names the state it waits for (`answered`): a protocol word.
  const longPoll = url.pathname.endsWith('/wait');
  for (const [name, value] of url.searchParams) {
    if (!PUBLIC_PARAMETERS.has(name) && !(longPoll && name === 'state')) recordSecret(value, 'request-url');
  }
}

/** JSON leaves, skipping the public parameters; answers and form text alike. */
function recordJsonLeaves(value: unknown, kind: SecretKind, depth = 0): void {
  if (depth > 32 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    recordSecret(value, kind);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) recordJsonLeaves(item, kind, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      if (!PUBLIC_PARAMETERS.has(name)) recordJsonLeaves(item, kind, depth + 1);
    }
  }
}

function recordForm(params: URLSearchParams, kind: SecretKind): void {
  for (const [name, value] of params) if (!PUBLIC_PARAMETERS.has(name)) recordSecret(value, kind);
}

function recordBodyText(text: string, contentType: string): void {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || /json/i.test(contentType)) {
    try {
      recordJsonLeaves(JSON.parse(trimmed), 'request-body');
      return;
    } catch {
      // not JSON after all
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType) || /^[^\s=&]+=[^\s]*(&[^\s=&]+=[^\s]*)*$/.test(trimmed)) {
    recordForm(new URLSearchParams(trimmed), 'request-body');
    return;
  }
  recordSecret(trimmed, 'request-body');
}

function recordHeaders(headers: Headers): void {
  const authorization = headers.get('authorization');
  if (authorization) {
    const [scheme, credential = ''] = authorization.split(/\s+/, 2);
    if (/^basic$/i.test(scheme ?? '')) {
      const decoded = Buffer.from(credential, 'base64').toString('utf8');
      recordSecret(decoded.slice(decoded.indexOf(':') + 1), 'credential');
    } else recordSecret(credential, 'credential');
  }
  for (const part of (headers.get('cookie') ?? '').split(';')) recordSecret(part.split('=').slice(1).join('='), 'cookie');
}

async function recordRequest(input: RequestInfo | URL, init: RequestInit | undefined): Promise<void> {
  const request = input instanceof Request ? input : undefined;
  recordUrl(new URL(request ? request.url : String(input)));
  const headers = new Headers(init?.headers ?? request?.headers);
  recordHeaders(headers);
  const contentType = headers.get('content-type') ?? '';
  const body = init?.body;
  if (typeof body === 'string') recordBodyText(body, contentType);
  else if (body instanceof URLSearchParams) recordForm(body, 'request-body');
  else if (body instanceof FormData) {
    for (const [name, value] of body)
      if (typeof value === 'string' && !PUBLIC_PARAMETERS.has(name)) recordSecret(value, 'request-body');
  } else if (body instanceof Uint8Array || body instanceof ArrayBuffer) {
    recordBodyText(Buffer.from(body as Uint8Array).toString('utf8'), contentType);
  } else if (!body && request && request.body) {
    recordBodyText(await request.clone().text(), contentType);
  }
}

function recordResponseJson(value: unknown, depth = 0): void {
  if (depth > 32 || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) recordResponseJson(item, depth + 1);
    return;
  }
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (RESPONSE_SECRETS.has(name)) recordSecretLeaves(item, 'response-secret');
    else if (name === 'values') recordSecretLeaves(item, 'answer');
    else recordResponseJson(item, depth + 1);
  }
}

async function recordResponse(response: Response): Promise<void> {
  const location = response.headers.get('location');
  if (location) recordUrl(new URL(location, 'http://audit.invalid'));
  for (const cookie of response.headers.getSetCookie())
    recordSecret(cookie.split(';')[0]!.split('=').slice(1).join('='), 'cookie');
  const type = response.headers.get('content-type') ?? '';
  if (!/json|event-stream/i.test(type) || !response.body) return;
  const text = await response.clone().text();
  const documents = /event-stream/i.test(type)
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
    : [text];
  for (const document of documents) {
    try {
      recordResponseJson(JSON.parse(document));
    } catch {
      // not JSON
    }
  }
}

const dir = logAuditDir();
if (dir) {
  writeFileSync(join(dir, `ran-${process.env.SESS_TEST_DRIVER ?? 'unknown'}`), '');
  for (const fixture of [
    sampleSurface(),
    sampleAskArguments({ max: 3 }),
    seedSurface(),
    askExample(),
    fullSurface(),
    fullAsk(),
  ]) {
    recordJsonLeaves(fixture, 'form-text');
  }
  const original = globalThis.fetch;
  globalThis.fetch = async function auditedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    await recordRequest(input, init).catch(() => {});
    const response = await original(input, init);
    // In the background: a long-poll's or a stream's body ends when it ends.
    recordResponse(response).catch(() => {});
    return response;
  };
  afterAll(() => flushSecrets());
  process.once('exit', () => flushSecrets());
}
