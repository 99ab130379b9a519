import { type Db, oauthCodes, oauthGrants, oauthRefreshTokens } from '@sess/db';
import { count, eq } from 'drizzle-orm';
import type { TestUser } from '../factories/accounts.ts';
import { createPkcePair } from '../oauth-client.ts';
import type { OAuthTestServer } from './test-server.ts';

/** A DCR registration through the real endpoint; returns the status and JSON body. */
export async function register(server: OAuthTestServer, metadata: unknown, path = '/oauth/register') {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/** A public DCR client with the given redirect URIs (default: one loopback). */
export async function registerPublicClient(
  server: OAuthTestServer,
  redirectUris: string[] = ['http://127.0.0.1:9/callback'],
  name = 'Test app',
) {
  const { status, body } = await register(server, {
    client_name: name,
    redirect_uris: redirectUris,
    token_endpoint_auth_method: 'none',
  });
  if (status !== 201) throw new Error(`registration failed: ${JSON.stringify(body)}`);
  return { clientId: body['client_id'] as string, redirectUris: body['redirect_uris'] as string[] };
}

/** A fully valid authorization request URL; `overrides` replace or (with undefined) remove parameters. */
export function authorizeUrl(
  server: OAuthTestServer,
  base: { clientId: string; redirectUri: string; challenge?: string; state?: string },
  overrides: Record<string, string | undefined> = {},
  path = '/oauth/authorize',
): string {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: base.clientId,
    redirect_uri: base.redirectUri,
    scope: 'sess:interact',
    state: base.state ?? 'state-123',
    code_challenge: base.challenge ?? createPkcePair().challenge,
    code_challenge_method: 'S256',
    resource: `${server.url}/mcp`,
    ...overrides,
  };
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.append(name, value);
  return `${server.url}${path}?${query}`;
}

/** A token-endpoint request; returns status, headers and the JSON body. */
export async function tokenRequest(
  server: OAuthTestServer,
  params: Record<string, string>,
  headers: Record<string, string> = {},
  path = '/oauth/token',
) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** What exists for a client: grants, codes, refresh tokens (to assert "nothing issued"). */
export async function issuedFor(db: Db, clientId: string) {
  const [grants] = await db.select({ n: count() }).from(oauthGrants).where(eq(oauthGrants.clientId, clientId));
  const [codes] = await db.select({ n: count() }).from(oauthCodes).where(eq(oauthCodes.clientId, clientId));
  const [refresh] = await db.select({ n: count() }).from(oauthRefreshTokens).where(eq(oauthRefreshTokens.clientId, clientId));
  return { grants: Number(grants!.n), codes: Number(codes!.n), refreshTokens: Number(refresh!.n) };
}

/** The credentials `completeAuthorization` needs. */
export function credentials(user: TestUser) {
  return { email: user.email, password: user.password };
}
