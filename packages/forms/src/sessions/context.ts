import type { FormsRuntime } from '../runtime/forms-runtime.ts';

/**
 * Who a workspace verb acts for. Every query of a verb is filtered by `workspaceId`, so a
 * session of another workspace is simply not found (404, never 403).
 */
export interface WorkspaceContext {
  runtime: FormsRuntime;
  workspaceId: string;
  /** The workspace's plan when the caller already knows it (the API key lookup does); read otherwise. */
  plan?: string | undefined;
}
