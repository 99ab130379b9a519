import { createSessClient } from '@sess/client';
import { SessError } from '@sess/core';
import type { RequestScope, SessPrincipal } from '../call.ts';
import type { HandleBinding, HandleStore } from '../ports/handle-store.ts';
import { toBackendError } from './http-backend.ts';

/*
 * The scope of a host that holds one API key and no identity Sess could check (sess-mcp over
 * stdio, the OpenClaw plugin): the principal is the profile, the client is the host, the grant is
 * the profile, and the grant generation is the key's on that profile (a keyed digest kept by the
 * handle store, never the key), so a rotated key makes earlier handles BINDING_MISMATCH. The
 * workspace is the key's, as Sess names it in `Sess-Workspace-Id`. Each host keeps its own policy
 * for when to resolve again and its own words for a missing key.
 */

/** The part of a durable handle store this needs: the key's generation, and a store bound to a binding. */
export interface KeyedHandleStore {
  credentialGeneration(key: string): Promise<number>;
  bind(binding: HandleBinding): HandleStore;
}

export interface ApiKeyScopeOptions {
  origin: string;
  expectedWorkspaceId?: string | undefined;
  /** The profile: principal and grant of every handle. */
  profile: string;
  /** The host's client id (the binding's `clientId`), e.g. `sess-mcp-stdio`. */
  clientId: string;
  /** The `User-Agent` product token of the discovery read. */
  userAgent: string;
  store: KeyedHandleStore;
  fetch?: typeof globalThis.fetch | undefined;
}

/** A discovery failure as the tool error: the HTTP backend's own mapping; anything else is Sess out of reach. */
function discoveryError(error: unknown): SessError {
  const mapped = toBackendError(error, false);
  if (mapped instanceof SessError) return mapped;
  return new SessError(
    'SESS_UNAVAILABLE',
    'Sess could not be reached just now; nothing was changed. Try again in a moment.',
    {},
    { cause: error, retryable: true },
  );
}

/**
 * Resolves the scope of one key: one authenticated read (the cheapest: it proves the key and
 * names its workspace), then the binding on the key's generation. No request deadline of its
 * own: a wait ends at its wait_ms or when the host cancels the call.
 */
export async function resolveApiKeyScope(options: ApiKeyScopeOptions, key: string): Promise<RequestScope> {
  let workspaceId: string;
  try {
    const client = createSessClient({
      origin: options.origin,
      apiKey: key,
      expectedWorkspaceId: options.expectedWorkspaceId,
      fetch: options.fetch,
      userAgent: options.userAgent,
      timeoutMs: 15_000,
    });
    workspaceId = (await client.sessions.list({ limit: 1 })).workspaceId;
  } catch (error) {
    throw discoveryError(error);
  }
  const grantGeneration = await options.store.credentialGeneration(key);
  const ids = {
    workspaceId,
    principalId: options.profile,
    clientId: options.clientId,
    grantId: options.profile,
    grantGeneration,
  };
  const binding: HandleBinding = { origin: options.origin, ...ids };
  const principal: SessPrincipal = { ...ids, scopes: [], credential: async () => key };
  return { principal, binding, store: options.store.bind(binding), deadline: new AbortController().signal };
}
