import type { Tx } from '@sess/db';
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
  /**
   * The caller's open transaction, for a create that must commit with the caller's own rows (the
   * hosted MCP create writes its handle record in it). The create then writes inside it, never
   * in a shared group-commit statement.
   */
  tx?: Tx | undefined;
  /**
   * Who makes a new form, for its floor and whom it is for (`decideAudience`): a person's own
   * OAuth connection, or a workspace API key. Absent: the workspace's own (as an API key).
   */
  madeBy?: FormMaker | undefined;
}

/** A person through their own connection (their user id), or one of the workspace's API keys. */
export type FormMaker = { kind: 'person'; userId: string } | { kind: 'api_key' };
