import { API_KEY_PREFIX, type ApiKeyAuthenticator, type ApiKeyPrincipal } from '@sess/accounts';
import { type Logger, readBearerToken } from '@sess/core';
import { API_KEY_PRINCIPAL_PREFIX } from '@sess/hosted';
import type { SessPrincipal } from '@sess/interactions';
import type { AuthenticateRequest } from '@sess/mcp';
import { type AccessTokenVerifier, SCOPE_INTERACT } from '@sess/oauth';
import { createOAuthAuthenticate } from './oauth-authenticate.ts';

/**
 * A workspace API key as an MCP principal. The key is its own principal, client and grant (at
 * generation 0): its handles are seen by no other key and no OAuth grant of the workspace
 * (HANDLE_NOT_FOUND), and count against their own cap of unfinished interactions.
 */
export function apiKeyPrincipal(key: ApiKeyPrincipal): SessPrincipal {
  const id = `${API_KEY_PRINCIPAL_PREFIX}${key.apiKeyId}`;
  return {
    workspaceId: key.workspaceId,
    principalId: id,
    clientId: id,
    grantId: key.apiKeyId,
    grantGeneration: 0,
    scopes: [SCOPE_INTERACT],
  };
}

export interface ApiKeyOrOAuthDeps {
  verifier: AccessTokenVerifier;
  /** The app's one API-key authenticator, shared with /v1 (one cache, one revocation subscription). */
  apiKeys: ApiKeyAuthenticator;
  logger?: Logger | undefined;
}

/**
 * The edge's `authenticate` for `/mcp`: a bearer that looks like a workspace API key (`sess_…`)
 * is checked as one (the /v1 authenticator: 5-second cache, cleared on every replica by a
 * revocation), anything else as an OAuth access token. So a headless agent connects with
 * `Authorization: Bearer $SESS_API_KEY` and no sign-in. A database that cannot be read throws,
 * and the edge answers 503 rather than a 401 that would send the client through sign-in again.
 */
export function createApiKeyOrOAuthAuthenticate(
  deps: ApiKeyOrOAuthDeps,
): (request: AuthenticateRequest) => Promise<SessPrincipal | null> {
  const oauth = createOAuthAuthenticate(deps.verifier, deps.logger);
  return async function authenticate(request) {
    const bearer = readBearerToken(request.headers.get('authorization'));
    if (bearer.kind !== 'token' || !bearer.token.startsWith(API_KEY_PREFIX)) return oauth(request);
    const key = await deps.apiKeys.authenticate(bearer.token);
    if (!key) {
      deps.logger?.debug({ event: 'mcp.api_key.refused' }, 'API key refused');
      return null;
    }
    return apiKeyPrincipal(key);
  };
}
