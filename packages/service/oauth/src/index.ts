// The public surface of @sess/oauth: explicit named exports only.

export { PINNED_CLIENT_METADATA_DOCUMENTS } from './cimd/pinned-documents.ts';
// Verbs other packages (CLI, tests, account pages) may call.
export { deleteClient } from './clients/delete-client.ts';
export { type ClientInformationResponse, registerClient } from './clients/register-client.ts';
export { type ValidatedClientMetadata, validateClientMetadata } from './clients/validate-client-metadata.ts';
export { disconnectApp } from './grants/disconnect-app.ts';
export { disconnectConnectedApp } from './grants/disconnect-connected-app.ts';
export { type ConnectedApp, connectedAppKey, listConnectedApps } from './grants/list-connected-apps.ts';
export { revokeGrant } from './grants/revoke-grant.ts';
// The authorization server's routes (mounted at `/` by apps/server).
export { answersOAuthErrors, createOAuthRoutes } from './http/create-oauth-routes.ts';
export type { OAuthEnv, OAuthRoutesDeps } from './http/deps.ts';
export { temporarilyUnavailableJson } from './http/respond.ts';
export { createOAuthSweeper, type PruneReport, pruneOAuthRecords } from './maintenance/prune-oauth-records.ts';
// Fixed choices and URLs.
export {
  ACCESS_TOKEN_TTL_S,
  buildOAuthUrls,
  CODE_TTL_S,
  GRANT_CHANNEL,
  MCP_PATH,
  type OAuthUrls,
  REFRESH_GRACE_S,
  REFRESH_TOKEN_TTL_S,
  SCOPE_INTERACT,
  SCOPES_SUPPORTED,
} from './settings.ts';
// The resource-server side (the MCP edge): token verification and 401/403 challenges.
export {
  type AccessTokenFailure,
  type AccessTokenPrincipal,
  type AccessTokenVerifier,
  type AccessTokenVerifierOptions,
  createAccessTokenVerifier,
  type VerifyAccessTokenResult,
} from './verify/create-access-token-verifier.ts';
