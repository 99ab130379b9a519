import { SessError } from '@sess/core';
import type { FileHandleStore } from '@sess/file-store';
import { type RequestScope, resolveApiKeyScope } from '@sess/interactions';
import { API_KEY_VARIABLE, PLUGIN_PROFILE, type PluginConfig } from '../config/read-plugin-config.ts';

/*
 * The one scope of the plugin, bound as sess-mcp binds its own (apps/stdio's stdio-scope.ts): the
 * Gateway carries no identity of the person that Sess could check, so the principal is the
 * profile, the client is this plugin, and the grant generation is the API key's on that profile
 * (a keyed digest in the state directory, never the key). A rotated key makes earlier handles
 * BINDING_MISMATCH; another workspace's handles are HANDLE_NOT_FOUND.
 *
 * SESS_API_KEY is read from the Gateway's environment when a tool is called, never at start-up
 * and never from an argument. A missing key is NOT_CONFIGURED; Sess out of reach is
 * SESS_UNAVAILABLE; the next call tries again.
 */

/** The client id of every plugin handle (the binding's `clientId`). */
export const OPENCLAW_CLIENT_ID = 'sess-openclaw';
/** The `User-Agent` product token in front of the client's own. */
export const USER_AGENT = 'sess-openclaw';

export interface PluginScopeOptions {
  config: PluginConfig;
  /** The Gateway's environment, read for SESS_API_KEY on every call. */
  env: Record<string, string | undefined>;
  fileStore: FileHandleStore;
  fetch?: typeof globalThis.fetch | undefined;
}

function notConfiguredKey(): SessError {
  return new SessError(
    'NOT_CONFIGURED',
    `${API_KEY_VARIABLE} is not set in the Gateway's environment. The owner puts a Sess API key (from the Sess account, under API keys) in ~/.openclaw/.env and restarts the Gateway; never paste it into a chat.`,
  );
}

/**
 * The plugin's scope resolver: the first call with a key learns its workspace (one
 * authenticated read) and binds the file store; later calls with the same key get the same
 * scope. A changed or removed key is resolved again (or refused).
 */
export function createPluginScope(options: PluginScopeOptions): () => Promise<RequestScope> {
  const { config, fileStore } = options;
  let resolved: { key: string; scope: RequestScope } | undefined;
  let resolving: { key: string; promise: Promise<RequestScope> } | undefined;

  // No request deadline of its own: a wait ends at its wait_ms or when OpenClaw aborts the call.
  const attempt = (key: string) =>
    resolveApiKeyScope(
      {
        origin: config.origin,
        expectedWorkspaceId: config.expectedWorkspaceId,
        profile: PLUGIN_PROFILE,
        clientId: OPENCLAW_CLIENT_ID,
        userAgent: USER_AGENT,
        store: fileStore,
        fetch: options.fetch,
      },
      key,
    );

  return () => {
    const key = options.env[API_KEY_VARIABLE];
    if (key === undefined || key === '') return Promise.reject(notConfiguredKey());
    if (resolved?.key === key) return Promise.resolve(resolved.scope);
    if (resolving?.key === key) return resolving.promise;
    // One attempt per key at a time: calls that arrive meanwhile share it.
    const promise = attempt(key)
      .then((scope) => {
        resolved = { key, scope };
        return scope;
      })
      .finally(() => {
        if (resolving?.promise === promise) resolving = undefined;
      });
    resolving = { key, promise };
    return promise;
  };
}
