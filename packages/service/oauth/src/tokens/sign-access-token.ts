import { newId } from '@sess/core';
import { SignJWT } from 'jose';
import { ACCESS_TOKEN_TTL_S } from '../settings.ts';
import { ACCESS_TOKEN_ALG, type AccessTokenSigner } from './access-token-keys.ts';

/** The JWT type of our access tokens. @see https://www.rfc-editor.org/rfc/rfc9068#section-2.1 */
export const ACCESS_TOKEN_TYP = 'at+jwt';

/** What an access token says, beyond the registered claims. */
export interface AccessTokenGrant {
  userId: string;
  workspaceId: string;
  clientId: string;
  grantId: string;
  grantGeneration: number;
  scope: string;
  resource: string;
}

/**
 * Mints an access token: a JWT (RFC 9068 profile) signed ES256, `aud` = the MCP resource,
 * `sub` = the user, plus `client_id`, `scope`, `workspace_id`, `grant_id`, `grant_generation`
 * and a unique `jti`; valid one hour.
 * @see https://www.rfc-editor.org/rfc/rfc9068#section-2.2
 */
export async function signAccessToken(
  signer: AccessTokenSigner,
  input: AccessTokenGrant & { issuer: string; now: Date },
): Promise<{ token: string; expiresIn: number }> {
  const iat = Math.floor(input.now.getTime() / 1000);
  const token = await new SignJWT({
    client_id: input.clientId,
    scope: input.scope,
    workspace_id: input.workspaceId,
    grant_id: input.grantId,
    grant_generation: input.grantGeneration,
  })
    .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: signer.kid, typ: ACCESS_TOKEN_TYP })
    .setIssuer(input.issuer)
    .setSubject(input.userId)
    .setAudience(input.resource)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_S)
    .setJti(newId('oauthAccessToken'))
    .sign(signer.privateKey);
  return { token, expiresIn: ACCESS_TOKEN_TTL_S };
}
