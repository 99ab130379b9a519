import { createSessClient } from '@sess/client';
import { SessError } from '@sess/core';
import type { FileHandleStore } from '@sess/file-store';
import { type HandleBinding, type HandleStore, type RequestScope, type SessPrincipal, toBackendError } from '@sess/interactions';
import type { StdioConfig } from '../config/load-config.ts';

/*
 * The one scope of a stdio process. stdio carries no authenticated identity, so the server does
 * not invent one: the principal is the profile, the client is this server, the grant is the
 * profile, and the grant generation is the API key's on that profile (a keyed digest, never the
 * key), so a rotated key makes earlier handles BINDING_MISMATCH. The workspace is the key's, as
 * Sess names it in `Sess-Workspace-Id` (or SESS_EXPECTED_WORKSPACE_ID for a runtime that does not).
 *
 * SESS_API_KEY is read when the first tool call arrives, never at start-up: `initialize` and
 * `tools/list` work without it. Until a call has resolved the scope, the resolver throws the
 * reason (NOT_CONFIGURED, SESS_UNAVAILABLE …), which the adapter answers as that tool's error.
 * @see ../../../../../shared/seeds/sess-mcp-readme.md "Security and support boundary" (owner-private, single profile)
 */

/** The client id of every stdio handle (the binding's `clientId`). */
export const STDIO_CLIENT_ID = 'sess-mcp-stdio';

/** The environment variable the key is read from. */
export const API_KEY_VARIABLE = 'SESS_API_KEY';

export interface StdioScopeOptions {
  config: StdioConfig;
  /** The process environment, read for SESS_API_KEY on each attempt until one succeeds. */
  env: Record<string, string | undefined>;
  fileStore: FileHandleStore;
  /** The fetch the discovery read uses (the backend's). */
  fetch?: typeof globalThis.fetch | undefined;
  /** Wraps the bound store (the test-only fault hook). */
  wrapStore?: (store: HandleStore) => HandleStore;
}

function notConfiguredKey(): SessError {
  return new SessError(
    'NOT_CONFIGURED',
    `${API_KEY_VARIABLE} is not set. The owner must put a Sess API key (from the Sess account, under API keys) in the environment of this server, never in a chat.`,
  );
}

/** A discovery failure as the tool error: the HTTP backend's own mapping; an abort is Sess out of reach. */
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
 * The stdio process's scope (see the module comment), for `createServerFactory`'s resolver: the
 * first tool call reads the key and learns the workspace; later calls get the same scope. A
 * failure is that call's error, and the next call tries again.
 */
export function createStdioScope(options: StdioScopeOptions): () => Promise<RequestScope> {
  const { config, fileStore } = options;
  // stdio has no request deadline: a wait ends at wait_ms, on an MCP cancellation or when stdin closes.
  const noDeadline = new AbortController().signal;
  let resolved: RequestScope | undefined;
  let resolving: Promise<RequestScope> | undefined;

  async function attempt(): Promise<RequestScope> {
    const key = options.env[API_KEY_VARIABLE];
    if (key === undefined || key === '') throw notConfiguredKey();
    let workspaceId: string;
    try {
      const client = createSessClient({
        origin: config.origin,
        apiKey: key,
        allowInsecureLocalhost: config.allowInsecureLocalhost,
        expectedWorkspaceId: config.expectedWorkspaceId,
        fetch: options.fetch,
        userAgent: 'sess-mcp',
        timeoutMs: 15_000,
      });
      // The cheapest authenticated read: it proves the key and names its workspace.
      workspaceId = (await client.sessions.list({ limit: 1 })).workspaceId;
    } catch (error) {
      throw discoveryError(error);
    }
    const grantGeneration = await fileStore.credentialGeneration(key);
    const binding: HandleBinding = {
      origin: config.origin,
      workspaceId,
      principalId: config.profile,
      clientId: STDIO_CLIENT_ID,
      grantId: config.profile,
      grantGeneration,
    };
    const bound = fileStore.bind(binding);
    const principal: SessPrincipal = {
      workspaceId,
      principalId: config.profile,
      clientId: STDIO_CLIENT_ID,
      grantId: config.profile,
      grantGeneration,
      scopes: [],
      credential: async () => key,
    };
    return { principal, binding, store: options.wrapStore ? options.wrapStore(bound) : bound, deadline: noDeadline };
  }

  return () => {
    if (resolved) return Promise.resolve(resolved);
    // One attempt at a time: calls that arrive meanwhile share it.
    resolving ??= attempt()
      .then((scope) => {
        resolved = scope;
        return scope;
      })
      .finally(() => {
        resolving = undefined;
      });
    return resolving;
  };
}
