import { type OAuthUrls, SCOPES_SUPPORTED } from '../settings.ts';

/**
 * Protected resource metadata for `PUBLIC_URL/mcp`: our issuer is its one authorization server.
 * `resource` is the exact string clients derive from the URL they were given (no trailing slash).
 * @see https://www.rfc-editor.org/rfc/rfc9728#section-2
 */
export function buildProtectedResourceMetadata(urls: OAuthUrls) {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...SCOPES_SUPPORTED],
    bearer_methods_supported: ['header'],
    resource_name: 'Sess',
    resource_documentation: `${urls.issuer}/`,
  };
}

/**
 * Authorization server metadata. `issuer` is PUBLIC_URL with no path, byte-identical to the URL
 * clients build the well-known address from. Only the code flow, only S256; `none` among the
 * token endpoint auth methods (Claude uses CIMD only when it sees both that and
 * `client_id_metadata_document_supported`); `iss` in authorization responses (RFC 9207).
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-2
 */
export function buildAuthorizationServerMetadata(urls: OAuthUrls) {
  const authMethods = ['none', 'client_secret_basic', 'client_secret_post'];
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorizationEndpoint,
    token_endpoint: urls.tokenEndpoint,
    registration_endpoint: urls.registrationEndpoint,
    revocation_endpoint: urls.revocationEndpoint,
    jwks_uri: urls.jwksUri,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_methods_supported: authMethods,
    scopes_supported: [...SCOPES_SUPPORTED],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    protected_resources: [urls.resource],
    service_documentation: `${urls.issuer}/`,
  };
}
