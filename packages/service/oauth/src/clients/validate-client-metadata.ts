import { describeTextProblem, findTextProblem } from '@sess/core';
import { OAuthError } from '../errors/oauth-error.ts';
import { parseScopeParameter } from '../scope.ts';
import { checkRedirectUriForRegistration } from './redirect-uri.ts';

/** Limits on registered metadata (RFC 7591 lets the server refuse or trim what it will not keep). */
export const CLIENT_METADATA_LIMITS = {
  clientName: 120,
  redirectUris: 10,
  stringField: 2000,
  shortField: 200,
} as const;

export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** Metadata as the server keeps it, after validation. */
export interface ValidatedClientMetadata {
  clientName: string | null;
  redirectUris: string[];
  /** URIs left out because they were odd but not unsafe (plain http to a remote host). */
  droppedRedirectUris: Array<{ uri: string; reason: string }>;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** Always both: refresh tokens are issued without `offline_access` and without asking. */
  grantTypes: string[];
  applicationType: 'web' | 'native' | null;
  scope: string | null;
  clientUri: string | null;
  softwareId: string | null;
  softwareVersion: string | null;
}

const GRANT_TYPES = ['authorization_code', 'refresh_token'];

function fail(description: string, code: 'invalid_client_metadata' | 'invalid_redirect_uri' = 'invalid_client_metadata'): never {
  throw new OAuthError(code, description);
}

function optionalString(value: unknown, field: string, limit: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') fail(`${field} must be a string.`);
  if (value.length > limit) fail(`${field} is longer than ${limit} characters.`);
  return value;
}

function optionalStringArray(value: unknown, field: string): string[] | null {
  if (value === undefined || value === null) return null;
  if (
    !Array.isArray(value) ||
    value.some((item) => typeof item !== 'string' || item.length > CLIENT_METADATA_LIMITS.shortField)
  ) {
    fail(`${field} must be an array of short strings.`);
  }
  if (value.length > 20) fail(`${field} has more than 20 values.`);
  return value as string[];
}

/** A display name: control characters removed, whitespace collapsed, at most 120 characters. */
function cleanName(value: unknown): string | null {
  const name = optionalString(value, 'client_name', 1000);
  if (name === null) return null;
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned.length === 0) return null;
  return [...cleaned].slice(0, CLIENT_METADATA_LIMITS.clientName).join('');
}

/**
 * The character rule (`findTextProblem`, core) over every string and key of the document, known
 * fields or not: the whole document is stored, and its name and hosts are shown to a person.
 * Names the place as `client_name` or `redirect_uris[0]`.
 */
function checkCharacters(value: unknown, place: string, depth = 0): void {
  if (typeof value === 'string') {
    const problem = findTextProblem(value);
    if (problem) fail(`${place} ${describeTextProblem(problem)}.`);
  } else if (Array.isArray(value)) {
    if (depth < 8) for (const [i, item] of value.entries()) checkCharacters(item, `${place}[${i}]`, depth + 1);
  } else if (value !== null && typeof value === 'object' && depth < 8) {
    for (const [key, child] of Object.entries(value)) {
      const problem = findTextProblem(key);
      if (problem) fail(`a field name${place ? ` in ${place}` : ''} ${describeTextProblem(problem)}.`);
      checkCharacters(child, place ? `${place}.${key}` : key, depth + 1);
    }
  }
}

function checkRedirectUris(value: unknown): Pick<ValidatedClientMetadata, 'redirectUris' | 'droppedRedirectUris'> {
  if (!Array.isArray(value) || value.length === 0) fail('redirect_uris must be a non-empty array.', 'invalid_redirect_uri');
  if (value.length > CLIENT_METADATA_LIMITS.redirectUris) {
    fail(`redirect_uris has more than ${CLIENT_METADATA_LIMITS.redirectUris} values.`, 'invalid_redirect_uri');
  }
  const redirectUris: string[] = [];
  const droppedRedirectUris: Array<{ uri: string; reason: string }> = [];
  for (const uri of value) {
    if (typeof uri !== 'string') fail('redirect_uris must hold strings.', 'invalid_redirect_uri');
    const check = checkRedirectUriForRegistration(uri);
    if (check.ok) {
      if (!redirectUris.includes(uri)) redirectUris.push(uri);
    } else if (check.unsafe) {
      fail(`redirect URI ${JSON.stringify(uri.slice(0, 100))} ${check.reason}.`, 'invalid_redirect_uri');
    } else {
      droppedRedirectUris.push({ uri, reason: check.reason });
    }
  }
  if (redirectUris.length === 0) {
    fail(`no usable redirect URI: ${droppedRedirectUris.map((d) => d.reason).join('; ')}.`, 'invalid_redirect_uri');
  }
  return { redirectUris, droppedRedirectUris };
}

/**
 * Validates client metadata from a registration request (`source: 'dcr'`) or a Client ID
 * Metadata Document (`'cimd'`). Unknown fields are ignored, as RFC 7591 §2 requires. Grant and
 * response types must include the code flow; extra grant types a client lists for other servers
 * (Claude's document names jwt-bearer) are ignored, not refused. CIMD clients are public: they
 * have no registration in which a secret could be agreed.
 * @throws OAuthError `invalid_client_metadata` or `invalid_redirect_uri`
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-2
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2.2
 * @see https://datatracker.ietf.org/doc/draft-ietf-oauth-client-id-metadata-document/
 */
export function validateClientMetadata(input: unknown, source: 'dcr' | 'cimd'): ValidatedClientMetadata {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) fail('the metadata must be a JSON object.');
  checkCharacters(input, '');
  const m = input as Record<string, unknown>;
  const uris = checkRedirectUris(m['redirect_uris']);

  const method = m['token_endpoint_auth_method'] ?? (source === 'cimd' ? 'none' : 'client_secret_basic');
  const allowed = source === 'cimd' ? ['none'] : ['none', 'client_secret_basic', 'client_secret_post'];
  if (typeof method !== 'string' || !allowed.includes(method)) {
    fail(`token_endpoint_auth_method must be one of ${allowed.join(', ')}.`);
  }

  const grantTypes = optionalStringArray(m['grant_types'], 'grant_types');
  if (grantTypes && !grantTypes.includes('authorization_code')) fail('grant_types must include authorization_code.');
  const responseTypes = optionalStringArray(m['response_types'], 'response_types');
  if (responseTypes && !responseTypes.includes('code')) fail('response_types must include code.');

  const applicationType = m['application_type'];
  if (applicationType !== undefined && applicationType !== null && applicationType !== 'web' && applicationType !== 'native') {
    fail('application_type must be web or native.');
  }
  const scopeValue = optionalString(m['scope'], 'scope', 1000);
  if (scopeValue !== null) {
    try {
      parseScopeParameter(scopeValue);
    } catch {
      fail('scope is not a valid list of scope tokens.');
    }
  }
  const clientUri = optionalString(m['client_uri'], 'client_uri', CLIENT_METADATA_LIMITS.stringField);
  return {
    clientName: cleanName(m['client_name']),
    ...uris,
    tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
    grantTypes: [...GRANT_TYPES],
    applicationType: (applicationType as 'web' | 'native' | undefined) ?? null,
    scope: scopeValue,
    // Kept only when it is a plain https URL; it is informational and never fetched.
    clientUri: clientUri && /^https:\/\/[^\s]+$/.test(clientUri) && URL.canParse(clientUri) ? clientUri : null,
    softwareId: optionalString(m['software_id'], 'software_id', CLIENT_METADATA_LIMITS.shortField),
    softwareVersion: optionalString(m['software_version'], 'software_version', CLIENT_METADATA_LIMITS.shortField),
  };
}
