export {
  ASSURANCE_LEVELS,
  apiKeys,
  browserSessions,
  memberships,
  signInAttempts,
  signupTokens,
  userIdentities,
  users,
  webauthnChallenges,
  webauthnCredentials,
  workspaces,
} from './accounts.ts';
export { eventChains, interactionEvents } from './events.ts';
export { askRespondents, formAnswers, formRevisions, formSessions, idempotencyKeys, signingKeys } from './forms.ts';
export { mcpHandles, mcpTasks } from './mcp.ts';
export { notificationOutbox, notificationSettings, pushSubscriptions, vapidKeys } from './notify.ts';
export { oauthClients, oauthCodes, oauthGrants, oauthRefreshTokens, oauthSigningKeys } from './oauth.ts';
export { lockOpenCounts, openCounts, principalUnfinishedKey, workspaceOpenKey } from './open-counts.ts';
export { webhookDeliveries, webhookEndpoints } from './webhooks.ts';
