import { buildOAuthUrls } from '../settings.ts';

/** What a protected route tells a client that was refused. */
export interface BearerChallengeInput {
  /** The protected resource metadata URL (`PUBLIC_URL/.well-known/oauth-protected-resource/mcp`). */
  resourceMetadataUrl: string;
  /** Every scope the request needs (all at once; clients union them). */
  scopes?: readonly string[];
  /** Left out when the request carried no credentials (RFC 6750 §3.1). */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  errorDescription?: string;
}

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ')}"`;
}

/**
 * A `WWW-Authenticate: Bearer …` value: `error` (when there is one), `error_description`,
 * `resource_metadata` (RFC 9728 §5.1) and `scope`. With no token sent there is no `error`: a
 * bare challenge, as RFC 6750 asks and as some clients (Grok) require.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3
 * @see https://www.rfc-editor.org/rfc/rfc9728#section-5.1
 */
export function bearerChallenge(input: BearerChallengeInput): string {
  const params: string[] = [];
  if (input.error) params.push(`error=${quoted(input.error)}`);
  if (input.error && input.errorDescription) params.push(`error_description=${quoted(input.errorDescription)}`);
  params.push(`resource_metadata=${quoted(input.resourceMetadataUrl)}`);
  if (input.scopes && input.scopes.length > 0) params.push(`scope=${quoted(input.scopes.join(' '))}`);
  return `Bearer ${params.join(', ')}`;
}

/** The three challenges a protected route sends, with their statuses, for one public URL. */
export function bearerChallenges(publicUrl: string, scopes: readonly string[]) {
  const resourceMetadataUrl = buildOAuthUrls(publicUrl).protectedResourceMetadata;
  return {
    /** 401, no credentials sent: no `error`. */
    missingToken: () => ({ status: 401 as const, header: bearerChallenge({ resourceMetadataUrl, scopes }) }),
    /** 401, a token that is malformed, expired, revoked or not for us. */
    invalidToken: (description = 'The access token is invalid, expired or revoked.') => ({
      status: 401 as const,
      header: bearerChallenge({ resourceMetadataUrl, scopes, error: 'invalid_token', errorDescription: description }),
    }),
    /** 403, a valid token without every scope the operation needs (`needed` lists them all). */
    insufficientScope: (needed: readonly string[] = scopes) => ({
      status: 403 as const,
      header: bearerChallenge({
        resourceMetadataUrl,
        scopes: needed,
        error: 'insufficient_scope',
        errorDescription: 'The access token lacks a scope this request needs.',
      }),
    }),
  };
}

/**
 * The bearer token of an `Authorization` header: `missing` (no header), `malformed` (another
 * scheme, several tokens, bad characters) or the token. Tokens in the query are never read.
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
