import { createSessClient, isSessClientError } from '@sess/client';
import { SessError } from '@sess/core';
import type { FileHandleStore } from '@sess/file-store';
import type { HandleBinding, HandleStore, RequestScope, SessPrincipal } from '@sess/interactions';
import type { StdioConfig } from '../config/load-config.ts';

/*
 * The one scope of a stdio process. stdio carries no authenticated identity, so the server does
 * not invent one: the principal is the profile, the client is this server, the grant is the
 * profile, and the grant generation is the API key's on that profile (a keyed digest, never the
 * key), so a rotated key makes earlier handles BINDING_MISMATCH. The workspace is the key's, as
 * Sess names it in `Sess-Workspace-Id` (or SESS_EXPECTED_WORKSPACE_ID for a runtime that does not).
 *
 * SESS_API_KEY is read when the first tool call arrives, never at start-up: `initialize` and
 * `tools/list` work without it. Until a call has resolved the scope, every part of it throws the
 * reason (NOT_CONFIGURED, SESS_UNAVAILABLE …), which the adapter answers as that tool's error.
 * @see ../../../../../shared/seeds/sess-mcp-readme.md "Security and support boundary" (owner-private, single profile)
 */

/** The client id of every stdio handle (the binding's `clientId`). */
export const STDIO_CLIENT_ID = 'sess-mcp-stdio';

/** The environment variable the key is read from. */
export const API_KEY_VARIABLE = 'SESS_API_KEY';

export interface StdioScope {
  /** The scope the adapter holds: its parts throw the last failure until `resolve()` succeeded. */
  readonly scope: RequestScope;
  /** Reads the key and learns the workspace, once; after a failure the next call tries again. */
  resolve(): Promise<void>;
  readonly resolved: boolean;
}

export interface StdioScopeOptions {
  config: StdioConfig;
  /** The process environment, read for SESS_API_KEY on each attempt until one succeeds. */
  env: Record<string, string | undefined>;
  fileStore: FileHandleStore;
  /** The fetch both the discovery read and the backend use. */
  fetch: typeof globalThis.fetch;
  /** Wraps the bound store (the test-only fault hook). */
  wrapStore?: (store: HandleStore) => HandleStore;
}

/** The header our runtime names the key's workspace in. */
const WORKSPACE_HEADER = 'sess-workspace-id';

function notConfiguredKey(): SessError {
  return new SessError(
    'NOT_CONFIGURED',
    `${API_KEY_VARIABLE} is not set. The owner must put a Sess API key (from the Sess account, under API keys) in the environment of this server, never in a chat.`,
  );
}

function contextMissing(): SessError {
  return new SessError(
    'NOT_CONFIGURED',
    'Sess did not name the workspace of this API key, so answers cannot be verified (VERIFICATION_CONTEXT_MISSING). The owner must set SESS_EXPECTED_WORKSPACE_ID to the workspace id (ws_…).',
    { reason: 'verification_context_missing' },
  );
}

/**
 * A fetch that also serves a runtime without `Sess-Workspace-Id`: with SESS_EXPECTED_WORKSPACE_ID
 * set, such a response is read as that workspace's (the trusted context the seed describes); a
 * response that names another workspace is left as it is, so the tools see the mismatch.
 */
export function createWorkspaceFetch(
  base: typeof globalThis.fetch,
  expectedWorkspaceId: string | undefined,
): typeof globalThis.fetch {
  if (expectedWorkspaceId === undefined) return base;
  return async (input, init) => {
    const response = await base(input, init);
    if (response.headers.has(WORKSPACE_HEADER)) return response;
    const headers = new Headers(response.headers);
    headers.set(WORKSPACE_HEADER, expectedWorkspaceId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** The failure of the discovery read, as the tool error the owner or agent acts on. */
function discoveryError(error: unknown, sawWorkspace: boolean): SessError {
  if (!isSessClientError(error)) {
    return new SessError(
      'SESS_UNAVAILABLE',
      'Sess could not be reached just now; nothing was changed. Try again in a moment.',
      {},
      {
        retryable: true,
      },
    );
  }
  switch (error.kind) {
    case 'configuration':
      return new SessError(
        'NOT_CONFIGURED',
        `Sess refused the API key in ${API_KEY_VARIABLE}, or the origin is wrong. The owner must fix the configuration.`,
        { reason: error.sent ? 'refused' : 'not_sent' },
      );
    case 'protocol':
      if (error.status !== undefined && error.status >= 200 && error.status < 300 && !sawWorkspace) return contextMissing();
      return new SessError('SESS_PROTOCOL_ERROR', 'Sess answered something that does not fit its contract.');
    case 'api':
      if (error.status === 401 || error.status === 403) {
        return new SessError(
          'NOT_CONFIGURED',
          `Sess refused the API key in ${API_KEY_VARIABLE}. The owner must fix the configuration.`,
          { reason: 'refused' },
        );
      }
      return new SessError(
        'SESS_UNAVAILABLE',
        'Sess could not serve this call just now; nothing was changed. Try again in a moment.',
        {},
        {
          retryable: true,
        },
      );
    case 'aborted':
    case 'transport':
    case 'timeout':
    case 'unknown_outcome':
      return new SessError(
        'SESS_UNAVAILABLE',
        'Sess could not be reached just now; nothing was changed. Try again in a moment.',
        {},
        {
          retryable: true,
        },
      );
    default: {
      const unreachable: never = error.kind;
      return new SessError('SESS_PROTOCOL_ERROR', `unclassified client failure ${String(unreachable)}`);
    }
  }
}

/** The stdio process's scope, resolved on the first tool call (see the module comment). */
export function createStdioScope(options: StdioScopeOptions): StdioScope {
  const { config, fileStore } = options;
  // stdio has no request deadline: a wait ends at wait_ms, on an MCP cancellation or when stdin closes.
  const noDeadline = new AbortController().signal;
  let current: { principal: SessPrincipal; binding: HandleBinding; store: HandleStore } | undefined;
  let failure: SessError = notConfiguredKey();
  let resolving: Promise<void> | undefined;

  function part<K extends 'principal' | 'binding' | 'store'>(name: K) {
    if (!current) throw failure;
    return current[name];
  }

  const scope: RequestScope = {
    get principal() {
      return part('principal');
    },
    get binding() {
      return part('binding');
    },
    get store() {
      return part('store');
    },
    get deadline() {
      if (!current) throw failure;
      return noDeadline;
    },
  };

  async function attempt(): Promise<void> {
    const key = options.env[API_KEY_VARIABLE];
    if (key === undefined || key === '') throw notConfiguredKey();
    let sawWorkspace = false;
    const fetchImpl: typeof globalThis.fetch = async (input, init) => {
      const response = await options.fetch(input, init);
      sawWorkspace = response.headers.has(WORKSPACE_HEADER);
      return response;
    };
    let workspaceId: string;
    try {
      const client = createSessClient({
        origin: config.origin,
        apiKey: key,
        allowInsecureLocalhost: config.allowInsecureLocalhost,
        expectedWorkspaceId: config.expectedWorkspaceId,
        fetch: fetchImpl,
        userAgent: 'sess-mcp',
        timeoutMs: 15_000,
      });
      // The cheapest authenticated read: it proves the key and names its workspace.
      workspaceId = (await client.sessions.list({ limit: 1 })).workspaceId;
    } catch (error) {
      throw discoveryError(error, sawWorkspace);
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
    current = {
      binding,
      store: options.wrapStore ? options.wrapStore(bound) : bound,
      principal: {
        workspaceId,
        principalId: config.profile,
        clientId: STDIO_CLIENT_ID,
        grantId: config.profile,
        grantGeneration,
        scopes: [],
        credential: async () => key,
      },
    };
  }

  return {
    scope,
    get resolved() {
      return current !== undefined;
    },
    resolve() {
      if (current) return Promise.resolve();
      resolving ??= attempt()
        .catch((error: unknown) => {
          failure = error instanceof SessError ? error : new SessError('STATE_STORE_ERROR', 'The local state could not be read.');
        })
        .finally(() => {
          resolving = undefined;
        });
      return resolving;
    },
  };
}
