import { hashSecret, newSecret } from '@sess/core';
import { type DbOrTx, oauthCodes } from '@sess/db';
import { CODE_TTL_S } from '../settings.ts';

/**
 * Creates a single-use authorization code bound to the grant generation, client, redirect URI,
 * PKCE challenge, scope and resource. Only its SHA-256 is stored; the code goes to the client
 * once, in the redirect.
 * @see https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.1.2
 */
export async function createAuthorizationCode(
  tx: DbOrTx,
  input: {
    grantId: string;
    grantGeneration: number;
    workspaceId: string;
    userId: string;
    clientId: string;
    redirectUri: string;
    redirectUriGiven: boolean;
    codeChallenge: string;
    scope: string;
    resource: string;
    now: Date;
  },
): Promise<string> {
  const code = newSecret(32);
  await tx.insert(oauthCodes).values({
    codeHash: hashSecret(code),
    workspaceId: input.workspaceId,
    grantId: input.grantId,
    grantGeneration: input.grantGeneration,
    clientId: input.clientId,
    userId: input.userId,
    redirectUri: input.redirectUri,
    redirectUriGiven: input.redirectUriGiven,
    codeChallenge: input.codeChallenge,
    scope: input.scope,
    resource: input.resource,
    createdAt: input.now,
    expiresAt: new Date(input.now.getTime() + CODE_TTL_S * 1000),
  });
  return code;
}
