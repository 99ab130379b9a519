/*
 * RFC 6750 bearer credentials, written once for every route that takes or asks for one: the MCP
 * endpoint (OAuth access tokens) and the /v1 API (API keys).
 * @see https://www.rfc-editor.org/rfc/rfc6750
 */

/**
 * The bearer token of an `Authorization` header: `missing` (no header), `malformed` (another
 * scheme, several tokens, characters a token68 cannot hold) or the token. Tokens in the query
 * are never read.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-2.1
 */
export function readBearerToken(
  header: string | null | undefined,
): { kind: 'missing' } | { kind: 'malformed' } | { kind: 'token'; token: string } {
  if (header === null || header === undefined || header === '') return { kind: 'missing' };
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) return { kind: 'malformed' };
  return { kind: 'token', token: match[1]! };
}

/** True when the request carries a bearer credential at all, well-formed or not (which challenge to send). */
export function hasBearerCredential(authorization: string | null | undefined): boolean {
  return typeof authorization === 'string' && /^bearer\s+\S/i.test(authorization.trim());
}

/** What a protected route tells a client it refused. */
export interface BearerChallengeInput {
  /** RFC 9728 §5.1: where the client discovers the authorization server (the MCP endpoint). */
  resourceMetadataUrl?: string;
  /** A realm, for a route without resource metadata (the /v1 API). */
  realm?: string;
  /** Every scope the request needs (all at once; clients union them). */
  scopes?: readonly string[];
  /** Left out when the request carried no credentials (RFC 6750 §3.1: SHOULD NOT). */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description?: string;
}

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}"`;
}

/**
 * A `WWW-Authenticate: Bearer …` value: `realm`, `error` (when there is one),
 * `error_description`, `resource_metadata` and `scope`, each quoted safely. With no token sent
 * there is no `error`: a bare challenge, as RFC 6750 asks and as some clients (Grok) require.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3
 * @see https://www.rfc-editor.org/rfc/rfc9728#section-5.1
 */
export function bearerChallenge(input: BearerChallengeInput): string {
  const params: string[] = [];
  if (input.realm) params.push(`realm=${quoted(input.realm)}`);
  if (input.error) params.push(`error=${quoted(input.error)}`);
  if (input.error && input.description) params.push(`error_description=${quoted(input.description)}`);
  if (input.resourceMetadataUrl) params.push(`resource_metadata=${quoted(input.resourceMetadataUrl)}`);
  if (input.scopes && input.scopes.length > 0) params.push(`scope=${quoted(input.scopes.join(' '))}`);
  return `Bearer ${params.join(', ')}`;
}
