/*
 * The client's integration harness: the real app (apps/server's buildApp via @sess/testkit) on
 * 127.0.0.1:0, workspaces with real API keys, and clients of the package under test pointed at
 * it. Links and keys are recorded for the log audit and never printed.
 */
import { createWorkspaceWithKey, recordSecret, sampleSurface, type TestWorkspace, tokenOf } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { createSessClient, type SessClient, type SessClientOptions } from '../../src/index.ts';

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
    client: (workspace, options = {}) =>
      createSessClient({ origin: server.url, apiKey: workspace.apiKey, allowInsecureLocalhost: true, ...options }),
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

/** A follow-up step: one yes/no question. */
export function pushInteraction() {
  return {
    mode: 'interactive' as const,
    title: 'Push to main now?',
    source: {
      kind: 'sess_surface' as const,
      components: [{ type: 'text' as const, text: 'The commit is ready.' }],
    },
    actions: [
      { id: 'push', label: 'Push', intent: 'approve' as const },
      { id: 'wait', label: 'Not yet', intent: 'reject' as const },
    ],
  };
}
