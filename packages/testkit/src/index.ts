export { answerAskOnPage, answerOnPage } from './answer-on-page.ts';
export { listenForMessage } from './bus-message.ts';
export { recordConnectionAttempts } from './connection-attempts.ts';
export { createTestDatabase, type TestDatabase } from './database.ts';
export { createTestUser, createTestWorkspace, signInTestUser, type TestUser } from './factories/accounts.ts';
export { setFormAssurance } from './factories/assurance.ts';
export {
  createTestClock,
  createTestFormsRuntime,
  createTestSession,
  sampleAskArguments,
  samplePushInteraction,
  sampleSurface,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestClock,
  tokenOf,
} from './factories/forms.ts';
export { createTestOAuthClient, type TestOAuthClient } from './factories/oauth.ts';
export { createUser, createWorkspace, createWorkspaceWithKey, type TestWorkspace } from './factories/workspaces.ts';
export { decodeEntities, inputValue, signInThroughPages, signUpThroughPages, TestBrowser } from './form-browser.ts';
export { freePort } from './free-port.ts';
export { describeHandleStoreContract, type HandleStoreUnderTest, sampleHandleRecord } from './handle-store-contract.ts';
export {
  flushSecrets,
  isLogAuditOn,
  recordSecret,
  recordSecretLeaves,
  type SecretKind,
} from './log-audit/capture.ts';
export { createManualTimers, type ManualTimers } from './manual-timers.ts';
export {
  type AuthorizationOutcome,
  type AuthorizedTestClient,
  CookieJar,
  completeAuthorization,
  createPkcePair,
  discoverOAuth,
  findForm,
  type HtmlForm,
  type OAuthDiscovery,
  parseHtmlForms,
  type SignInAndAuthorizeOptions,
  signInAndAuthorize,
  type TestClientRegistration,
  type TestTokens,
} from './oauth-client.ts';
export { signInUpstream, startTestIdp, startUpstreamSignIn, type TestIdp } from './oidc-provider.ts';
export { ONE_DRIVER_TESTS, type OneDriverTest, onlyOn } from './one-driver.ts';
export { type PrivateCluster, startPrivateCluster } from './private-cluster.ts';
export { maintenanceUrl, testDatabaseUrl, testDriver } from './test-env.ts';
export { childLogLevel, createChildOutputSplitter, createTestLogger, type TestLoggerOptions } from './test-logger.ts';
