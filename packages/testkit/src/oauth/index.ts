/**
 * `@sess/testkit/oauth`: what the OAuth tests share (the package's own and the whole-app ones in
 * apps/server/test/oauth): the real app for an OAuth test, the authorization and token requests,
 * and a loopback server for client metadata documents.
 */
export { type DocumentServer, startDocumentServer } from './document-server.ts';
export * from './oauth-helpers.ts';
export { type OAuthTestServer, type OAuthTestServerOptions, startOAuthTestServer } from './test-server.ts';
