/**
 * Shipped copies of vendor Client ID Metadata Documents, used only when fetching the live
 * document fails. From July to September 2026 claude.ai answered server-side fetches of these
 * URLs with a bot challenge (403 HTML), which would lock every Claude user out
 * (anthropics/claude-ai-mcp#650). A pinned copy can only ever send a code to the vendor's own
 * redirect URIs listed here, so using it grants nothing a forged request could exploit.
 *
 * Sources: the documents as published (Claude Code, fetched 2026-10-01: `max-age=300`,
 * port-less loopback redirects, `none`) and Claude's connector documentation. The Claude copy
 * lists both the claude.ai and claude.com callbacks, which Claude documents as its callbacks;
 * grant types for other servers (jwt-bearer) are left out because we ignore them anyway.
 * Update these when a vendor changes its document; the live document always wins when it loads.
 */
export const PINNED_CLIENT_METADATA_DOCUMENTS: ReadonlyMap<string, Readonly<Record<string, unknown>>> = new Map([
  [
    'https://claude.ai/oauth/claude-code-client-metadata',
    {
      client_id: 'https://claude.ai/oauth/claude-code-client-metadata',
      client_name: 'Claude Code',
      client_uri: 'https://claude.ai',
      redirect_uris: ['http://localhost/callback', 'http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  ],
  [
    'https://claude.ai/oauth/mcp-oauth-client-metadata',
    {
      client_id: 'https://claude.ai/oauth/mcp-oauth-client-metadata',
      client_name: 'Claude',
      client_uri: 'https://claude.ai',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'https://claude.com/api/mcp/auth_callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  ],
]);

/** How long a pinned copy stands in before the live document is tried again. */
export const PINNED_DOCUMENT_TTL_S = 300;
