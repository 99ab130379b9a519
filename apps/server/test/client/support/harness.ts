/*
 * The client's integration harness: the real app (apps/server's buildApp via @sess/testkit) on
 * 127.0.0.1:0, workspaces with real API keys, and clients of @sess/client pointed at it (the
 * client speaks /v1, the answer pages and the receipt keys: the whole app, hence here). Links and keys are recorded for the log audit and never printed.
 */

import { createSessClient, type SessClient, type SessClientOptions } from '@sess/client';
import { createWorkspaceWithKey, recordSecret, sampleSurface, type TestWorkspace, tokenOf } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';

export interface ClientHarness {
  server: AppServer;
  /** A fresh workspace on `plan` with a real API key. */
  workspace(plan?: string): Promise<TestWorkspace>;
  /** A client of `workspace` (its key) against the app, or against `origin` (a proxy) when given. */
  client(workspace: TestWorkspace, options?: Partial<SessClientOptions>): SessClient;
  close(): Promise<void>;
}

export async function startClientHarness(): Promise<ClientHarness> {
  const server = await startAppServer();
  return {
    server,
    workspace: (plan = 'pro') => createWorkspaceWithKey(server.database.db, { plan }),
    client: (workspace, options = {}) => createSessClient({ origin: server.url, apiKey: workspace.apiKey, ...options }),
    close: () => server.close(),
  };
}

/** Records a created link for the log audit (the link and its token are secrets). */
export function recordLink(humanUrl: string): void {
  recordSecret(humanUrl, 'link');
  recordSecret(tokenOf(humanUrl), 'link');
}

/** The seed's sample interaction as sess_request's `interaction`. */
export function commitInteraction(title?: string) {
  return sampleSurface(title);
}
