/**
 * What a workspace API key's MCP principal (and client) id is: this prefix and the key's id. The
 * hosting app makes such principals (apps/server); the owner review finds their handles by it,
 * because a key has no person of its own: its workspace's owners review for it.
 */
export const API_KEY_PRINCIPAL_PREFIX = 'api_key:';
