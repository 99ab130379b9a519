import { describeTextProblem, findTextProblem, isAcceptableText } from '@sess/core';
import type { OAuthClient } from '../clients/client-record.ts';
import { OAuthError } from '../errors/oauth-error.ts';
import { grantableScopes, parseScopeParameter } from '../scope.ts';
import { type VerifiedRedirect, verifyRedirectUri } from './verified-redirect.ts';

/** What the first, untrusted phase establishes: who the client is and where it may be answered. */
export interface TrustedTarget {
  client: OAuthClient;
  redirect: VerifiedRedirect;
  /** The `state` to echo (absent when the request had none: nothing is invented). */
  state: string | undefined;
}

/** A fully checked authorization request. */
export interface AuthorizationRequest extends TrustedTarget {
  codeChallenge: string;
  /** Scopes the grant will carry (the supported subset; see `grantableScopes`). */
  scopes: string[];
  resource: string;
  prompt: 'none' | 'login' | 'consent' | undefined;
}

const MAX_STATE_LENGTH = 2048;
// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is exactly 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
// Parameters that may appear at most once (RFC 6749 §3.1: "MUST NOT be included more than once").
const SINGLE_VALUED = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'prompt',
];

/**
 * The one value of `name`, or null; a repeated parameter is refused, and so is a value holding a
 * character Sess refuses (core's `findTextProblem`: a NUL cannot be stored, a control or a
 * bidirectional control has no place in a client id, URI, scope or state).
 */
function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw new OAuthError('invalid_request', `${name} is repeated.`);
  const value = values[0] ?? null;
  const problem = value === null ? undefined : findTextProblem(value);
  if (problem) throw new OAuthError('invalid_request', `${name} ${describeTextProblem(problem)}.`);
  return value;
}

/**
 * Phase 1 (untrusted): `client_id` names a known client and `redirect_uri` matches its
 * registration. Every error here is shown on a page.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */
export async function checkClientAndRedirect(
  params: URLSearchParams,
  findClient: (clientId: string) => Promise<{ ok: true; client: OAuthClient } | { ok: false; message: string }>,
): Promise<TrustedTarget> {
  const clientId = single(params, 'client_id');
  if (!clientId) throw new OAuthError('invalid_request', 'The request has no client_id.');
  const found = await findClient(clientId);
  if (!found.ok) throw new OAuthError('invalid_client', found.message);
  const redirect = verifyRedirectUri(found.client, single(params, 'redirect_uri'));
  // `state` is read now so that every later error can echo it.
  const states = params.getAll('state');
  const state =
    states.length === 1 && states[0]!.length <= MAX_STATE_LENGTH && isAcceptableText(states[0]!) ? states[0] : undefined;
  return { client: found.client, redirect, state };
}

/** `response_type` must be exactly `code`. @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.1.1 */
export function checkResponseType(params: URLSearchParams): void {
  const responseType = single(params, 'response_type');
  if (responseType === null) throw new OAuthError('invalid_request', 'response_type is required.');
  if (responseType !== 'code') throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.');
}

/** No parameter is repeated, and `state` is of a sane length. */
export function checkSingleValues(params: URLSearchParams): void {
  for (const name of SINGLE_VALUED) single(params, name);
  const state = params.get('state');
  if (state !== null && state.length > MAX_STATE_LENGTH)
    throw new OAuthError('invalid_request', `state is longer than ${MAX_STATE_LENGTH} characters.`);
}

/**
 * PKCE is required and only `S256` is accepted: a missing challenge, `plain`, or a missing
 * method (which RFC 7636 would read as plain) are all refused.
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.3
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.1.1
 */
export function checkPkce(params: URLSearchParams): string {
  const challenge = single(params, 'code_challenge');
  const method = single(params, 'code_challenge_method');
  if (!challenge) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE with S256).');
  if (method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256.');
  if (!S256_CHALLENGE.test(challenge))
    throw new OAuthError('invalid_request', 'code_challenge is not a base64url SHA-256 value.');
  return challenge;
}

/**
 * `resource` names the protected resource the token is for. We have one: absent means it, and
 * anything else is `invalid_target`. Scheme and host compare case-insensitively (the URL
 * parser lower-cases them); the path compares exactly.
 * @see https://www.rfc-editor.org/rfc/rfc8707#section-2
 */
export function checkResource(value: string | null, ourResource: string): string {
  if (value === null) return ourResource;
  if (!URL.canParse(value) || value.includes('#'))
    throw new OAuthError('invalid_target', 'resource must be an absolute URI without a fragment.');
  if (new URL(value).href !== new URL(ourResource).href) {
    throw new OAuthError('invalid_target', `This server only issues tokens for ${ourResource}.`);
  }
  return ourResource;
}

/** The scopes to grant: the supported subset of the request (unknown extras are ignored). */
export function checkScope(params: URLSearchParams): string[] {
  return grantableScopes(parseScopeParameter(single(params, 'scope')));
}

/** `prompt`: `none` can never be satisfied (consent is always asked); other values are advisory. */
export function checkPrompt(params: URLSearchParams): AuthorizationRequest['prompt'] {
  const prompt = single(params, 'prompt');
  if (prompt === null) return undefined;
  const values = prompt.split(' ');
  if (values.includes('none')) return 'none';
  if (values.includes('login')) return 'login';
  return 'consent';
}

/**
 * Phase 2 (trusted target): the rest of the request, in the order of the spec. Errors from
 * here are redirected to the verified redirect URI with `state` and `iss`.
 */
export function checkAuthorizationParameters(
  params: URLSearchParams,
  target: TrustedTarget,
  ourResource: string,
): AuthorizationRequest {
  checkSingleValues(params);
  checkResponseType(params);
  const codeChallenge = checkPkce(params);
  const resource = checkResource(params.get('resource'), ourResource);
  const scopes = checkScope(params);
  const prompt = checkPrompt(params);
  return { ...target, codeChallenge, scopes, resource, prompt };
}
