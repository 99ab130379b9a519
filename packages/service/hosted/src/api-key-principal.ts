import type { FormMaker } from '@sess/forms';

/**
 * What a workspace API key's MCP principal (and client) id is: this prefix and the key's id. The
 * hosting app makes such principals (apps/server); the owner review finds their handles by it,
 * because a key has no person of its own: its workspace's owners review for it.
 */
export const API_KEY_PRINCIPAL_PREFIX = 'api_key:';

/**
 * Who makes a form of this principal, for its floor and whom it is for (@sess/forms'
 * `decideAudience`): an OAuth grant's person (its principal id is the user id), or a workspace
 * API key, whose workspace's owners decide.
 */
export function makerOf(principalId: string): FormMaker {
  return principalId.startsWith(API_KEY_PRINCIPAL_PREFIX) ? { kind: 'api_key' } : { kind: 'person', userId: principalId };
}
