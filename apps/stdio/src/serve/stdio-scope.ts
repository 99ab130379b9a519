import { SessError } from '@sess/core';
import type { FileHandleStore } from '@sess/file-store';
import { type HandleStore, type RequestScope, resolveApiKeyScope } from '@sess/interactions';
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
 * @see ../../../../docs/contract/sess-mcp-readme.md "Security and support boundary" (owner-private, single profile)
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

/**
 * The stdio process's scope (see the module comment), for `createServerFactory`'s resolver: the
 * first tool call reads the key and learns the workspace; later calls get the same scope. A
 * failure is that call's error, and the next call tries again.
 */
export function createStdioScope(options: StdioScopeOptions): () => Promise<RequestScope> {
  const { config, fileStore } = options;
  const wrap = options.wrapStore ?? ((store: HandleStore) => store);
  let resolved: RequestScope | undefined;
  let resolving: Promise<RequestScope> | undefined;

  async function attempt(): Promise<RequestScope> {
    const key = options.env[API_KEY_VARIABLE];
    if (key === undefined || key === '') throw notConfiguredKey();
    // stdio has no request deadline: a wait ends at wait_ms, on an MCP cancellation or when stdin closes.
    return resolveApiKeyScope(
      {
        origin: config.origin,
        expectedWorkspaceId: config.expectedWorkspaceId,
        profile: config.profile,
        clientId: STDIO_CLIENT_ID,
        userAgent: 'sess-mcp',
        store: {
          credentialGeneration: (k) => fileStore.credentialGeneration(k),
          bind: (binding) => wrap(fileStore.bind(binding)),
        },
        fetch: options.fetch,
      },
      key,
    );
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
