// The public surface of @sess/accounts: explicit named exports only. Each area adds its own lines.

export {
  API_KEY_CACHE_TTL_MS,
  API_KEYS_CHANNEL,
  type ApiKeyAuthenticator,
  type ApiKeyAuthenticatorOptions,
  createApiKeyAuthenticator,
} from './api-keys/api-key-authenticator.ts';
// API keys for /v1 (workspace-scoped, shown once, stored as SHA-256 + prefix).
export {
  API_KEY_DISPLAY_LENGTH,
  API_KEY_PREFIX,
  apiKeyDisplayPrefix,
  isApiKeyShape,
  newApiKey,
} from './api-keys/api-key-format.ts';
export {
  type ApiKeyPrincipal,
  authenticateApiKey,
  LAST_USED_GRANULARITY_SECONDS,
} from './api-keys/authenticate-api-key.ts';
export { API_KEY_NAME_MAX, type CreateApiKeyInput, type CreatedApiKey, createApiKey } from './api-keys/create-api-key.ts';
export { type ApiKeySummary, listApiKeys } from './api-keys/list-api-keys.ts';
export { revokeApiKey } from './api-keys/revoke-api-key.ts';
export {
  type AssuranceLevel,
  FLOOR_CHOICES,
  type FloorChoice,
  readAssuranceFloors,
  setPersonAssuranceFloor,
  setWorkspaceApiKeyFloor,
  type WorkspaceFloor,
} from './assurance/assurance-floors.ts';
// Browser sessions (the `sess_session` cookie) — read by the OAuth pages.
export { type CreatedBrowserSession, createBrowserSession } from './browser-sessions/create-browser-session.ts';
export {
  deleteBrowserSession,
  deleteBrowserSessionsOfUser,
  deleteExpiredBrowserSessions,
} from './browser-sessions/delete-browser-session.ts';
export { type BrowserSession, readBrowserSession } from './browser-sessions/read-browser-session.ts';
export {
  clearSessionCookie,
  SESSION_ABSOLUTE_MS,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  sessionCookie,
} from './browser-sessions/session-cookie.ts';
// The HTTP face: sign-in, sign-up, sign-out, /account, /account/keys, "Sign in with …".
export { CONNECTED_APPS_PATH, createAccountRoutes } from './http/account-routes.ts';
export {
  type AccountRateLimits,
  type AccountRoutesDeps,
  type AccountsEnv,
  type OidcSettings,
  socketAddress,
} from './http/deps.ts';
export { OIDC_CALLBACK_PATH } from './http/oidc-routes.ts';
// Upstream OpenID sign-in.
export { createOidcClient, type OidcClient, type OidcIdentity, OidcSignInError } from './oidc/oidc-client.ts';
export { signInWithOidcIdentity } from './oidc/sign-in-with-oidc.ts';
// Passkeys (WebAuthn): the person's passkeys, password-less sign-in, and the answer ceremony.
export {
  type AnswerAssertion,
  startAnswerCeremony,
  verifyAnswerAssertion,
} from './passkeys/answer-ceremony.ts';
export { PASSKEY_ACCOUNT_LIMIT } from './passkeys/ceremony-limit.ts';
export {
  type CeremonyPurpose,
  CHALLENGE_TTL_MS,
  deleteExpiredChallenges,
  issueChallenge,
  takeChallenge,
} from './passkeys/challenges.ts';
export {
  checkPasskeyName,
  listPasskeys,
  PASSKEY_NAME_MAX,
  type PasskeySummary,
  removePasskey,
  renamePasskey,
} from './passkeys/credentials.ts';
export { finishPasskeySignIn, startPasskeySignIn } from './passkeys/passkey-sign-in.ts';
export { PASSKEY_REFUSALS, type PasskeyRefusal, type PasskeyRefusalReason } from './passkeys/refusals.ts';
export { finishPasskeyRegistration, startPasskeyRegistration } from './passkeys/registration.ts';
export { type RelyingParty, relyingPartyOf } from './passkeys/relying-party.ts';
// Passwords, users, sign-in and sign-up.
export { checkPassword, PASSWORD_MAX, PASSWORD_MIN } from './passwords/check-password.ts';
export { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from './passwords/password-hash.ts';
// Where to go after sign-in.
export { DEFAULT_RETURN_TO, parseReturnTo, safeReturnTo } from './return-to/safe-return-to.ts';
export {
  ACCOUNT_ATTEMPT_LIMIT,
  ACCOUNT_ATTEMPT_WINDOW_MS,
  countSignInAttempt,
  deleteStaleSignInAttempts,
} from './sign-in/count-sign-in-attempt.ts';
export { type SignInLimits, signInWithPassword, WRONG_CREDENTIALS } from './sign-in/sign-in-with-password.ts';
export { checkSignupInput, createUserAccount, signUp } from './signup/sign-up.ts';
export { SIGNUP_POLICIES, type SignupPolicy } from './signup/signup-policy.ts';
export {
  consumeSignupLink,
  createInvite,
  deleteStaleSignupTokens,
  FIRST_ACCOUNT_LINK_TTL_MS,
  INVITE_TTL_MS,
  issueFirstAccountToken,
  peekSignupLink,
  type SignupLink,
} from './signup/signup-tokens.ts';
export { type CreatedUser, personalWorkspaceName } from './users/create-user.ts';
export { EMAIL_MAX, normalizeEmail } from './users/normalize-email.ts';
export { accountPageLanguage, readSavedLanguage, saveLanguage } from './users/user-locale.ts';
// Workspaces of a person.
export { listWorkspacesForUser, type UserWorkspace } from './workspaces/list-workspaces-for-user.ts';
