/*
 * The durable tasks of the MCP Tasks extension (`io.modelcontextprotocol/tasks`): a task is a
 * sess_response the client may poll instead of waiting on. It holds little: who it belongs to,
 * the handle and revision it reads, and whether the client cancelled it. Its outcome is never
 * stored: every `tasks/get` computes it with a read that does not wait, so any replica answers
 * from the database alone.
 */

/** Whose a task is: the same authority a handle's reads are scoped to. */
export interface TaskOwner {
  workspaceId: string;
  principalId: string;
  clientId: string;
}

/** One task. `taskId` is a bearer-like secret (≥128 random bits); a store keeps only its hash. */
export interface TaskRecord extends TaskOwner {
  taskId: string;
  /** The tool the task runs (today always `sess_response`). */
  tool: 'sess_response';
  handle: string;
  revision: number;
  createdAt: string;
  updatedAt: string;
  /** When `tasks/cancel` withdrew the form; absent while the task runs. */
  cancelledAt?: string;
}

/**
 * The task store. Every read names its owner: another principal's (or client's, or workspace's)
 * task id reads as absent. Failures are `SessError('STATE_STORE_ERROR')`.
 */
export interface TaskStore {
  /** Resolves only once the task is durable: a `tasks/get` on any replica then finds it. */
  insert(record: TaskRecord): Promise<void>;
  get(taskId: string, owner: TaskOwner): Promise<TaskRecord | undefined>;
  /** Marks the task cancelled (the first time only); the record as it is now, or undefined when it is not the owner's. */
  cancel(taskId: string, owner: TaskOwner, at: Date): Promise<TaskRecord | undefined>;
}
