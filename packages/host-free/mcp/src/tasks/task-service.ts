import { type CallToolResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { MAX_WAIT_MS } from '@sess/contract';
import { newSecret } from '@sess/core';
import {
  backendContext,
  type RequestScope,
  type SessBackend,
  type TaskOwner,
  type TaskRecord,
  type TaskStore,
} from '@sess/interactions';
import { isPlainObject } from '../http/plain-object.ts';
import type { ScopeResolver, ToolRunner } from '../tools/build-server.ts';

/*
 * The tasks of the MCP Tasks extension over Sess's tools. A sess_response that would wait is
 * read once without waiting; if nothing is settled yet, the client gets a task instead of a
 * 45-second wait. A task stores only its owner, the handle and the revision: every `tasks/get`
 * is that same sess_response, read without waiting, so its final result is exactly the tool's
 * (receipt and checks included), and any replica answers from the database.
 */

/** How often a client should poll: a person answers in minutes, not milliseconds. */
export const POLL_INTERVAL_MS = 5000;
/** The interaction states a read reports while the person has not settled it yet. */
const UNSETTLED = new Set(['waiting', 'needs_resume']);

/** A task on the wire (without `resultType`, which the caller sets: `task` on creation, `complete` on tasks/get). */
export interface TaskWire {
  taskId: string;
  status: 'working' | 'completed' | 'cancelled';
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
  result?: CallToolResult;
}

export interface TaskService {
  /**
   * A declaring client's tools/call: a task when the call is one that would wait and is not
   * settled yet, else the tool's own result (undefined: not a call that becomes a task).
   */
  start(
    name: string,
    args: unknown,
    resolveScope: () => ReturnType<ScopeResolver>,
  ): Promise<CallToolResult | (TaskWire & { resultType: 'task' })> | undefined;
  /** tasks/get; the result still to be projected for the era by the caller. */
  get(taskId: string, resolveScope: () => ReturnType<ScopeResolver>): Promise<TaskWire>;
  /** tasks/update: Sess never asks the client for input, so an owned task's update is acknowledged and ignored. */
  update(taskId: string, resolveScope: () => ReturnType<ScopeResolver>): Promise<void>;
  /** tasks/cancel: withdraws the form unless the task has settled already. */
  cancel(taskId: string, resolveScope: () => ReturnType<ScopeResolver>): Promise<void>;
}

export interface TaskServiceOptions {
  store: TaskStore;
  tools: ToolRunner;
  backend?: SessBackend | undefined;
  now: () => Date;
}

function ownerOf(scope: RequestScope): TaskOwner {
  return {
    workspaceId: scope.binding.workspaceId,
    principalId: scope.binding.principalId,
    clientId: scope.binding.clientId,
  };
}

function notFound(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
}

type Interaction = {
  state?: string;
  expiresAt?: string;
  ask?: { counts?: { answered: number; max: number } };
};

function interactionOf(result: CallToolResult): Interaction | undefined {
  const structured = result.structuredContent;
  return isPlainObject(structured) && isPlainObject(structured.interaction) ? (structured.interaction as Interaction) : undefined;
}

/** Whether a result says the person has not settled the interaction yet (an error settles nothing only when retryable). */
function unsettled(result: CallToolResult): boolean {
  if (result.isError) return false;
  const state = interactionOf(result)?.state;
  return state !== undefined && UNSETTLED.has(state);
}

/** A transient failure of the read: the task is not over, the poll failed (-32603, try again). */
function transientFailure(result: CallToolResult): ProtocolError | undefined {
  if (!result.isError || !isPlainObject(result.structuredContent)) return undefined;
  const error = result.structuredContent.error;
  if (!isPlainObject(error) || error.retryable !== true) return undefined;
  return new ProtocolError(ProtocolErrorCode.InternalError, String(error.message));
}

/** Whether a sess_response `wait_ms` asks for a wait the tool would accept (absent: the longest). */
function waits(waitMs: unknown): boolean {
  return waitMs === undefined || (Number.isSafeInteger(waitMs) && (waitMs as number) > 0 && (waitMs as number) <= MAX_WAIT_MS);
}

/** `14:02 UTC` of an ISO time (the person's own time zone is not known here); the date too when it is not today's. */
export function clockTime(iso: string, today: Date = new Date(iso)): string {
  const time = new Date(iso);
  const hhmm = time.toISOString().slice(11, 16);
  const day = time.toISOString().slice(0, 10);
  return day === today.toISOString().slice(0, 10) ? `${hhmm} UTC` : `${day} ${hhmm} UTC`;
}

export function createTaskService(options: TaskServiceOptions): TaskService {
  const { store, tools, now } = options;

  async function scopeOf(resolveScope: () => ReturnType<ScopeResolver>): Promise<RequestScope> {
    const scope = await resolveScope();
    if (!scope)
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'This server was reached without an authenticated scope.');
    return scope;
  }

  function readOnce(record: Pick<TaskRecord, 'handle' | 'revision'>, scope: RequestScope): Promise<CallToolResult> {
    return tools.call('sess_response', { handle: record.handle, revision: record.revision, wait_ms: 0 }, () => scope);
  }

  /**
   * The line a working task shows: the backend's (the event timeline's) when it has one, else
   * what Sess knows without it: an Ask's count, or when the form was made and until when it is open.
   */
  async function statusMessage(record: TaskRecord, result: CallToolResult, scope: RequestScope): Promise<string> {
    const interaction = interactionOf(result);
    const handle = await scope.store.get(record.handle).catch(() => undefined);
    if (options.backend?.statusLine && handle) {
      const target = handle.askId ? { askId: handle.askId } : handle.sessionId ? { sessionId: handle.sessionId } : undefined;
      const line = target && (await options.backend.statusLine(backendContext(scope), target).catch(() => undefined));
      if (line) return line;
    }
    const counts = interaction?.ask?.counts;
    if (counts) return `${counts.answered} of ${counts.max} answered`;
    const made = handle ? `Sent ${clockTime(handle.createdAt, now())}, not answered yet` : 'Not answered yet';
    return interaction?.expiresAt ? `${made}; open until ${clockTime(interaction.expiresAt, now())}.` : `${made}.`;
  }

  function wire(record: TaskRecord, status: TaskWire['status']): TaskWire {
    return {
      taskId: record.taskId,
      status,
      createdAt: record.createdAt,
      lastUpdatedAt: record.updatedAt,
      // Kept until its handle is swept (30 days after it finishes): no promise of a time here.
      ttlMs: null,
      pollIntervalMs: POLL_INTERVAL_MS,
    };
  }

  async function current(record: TaskRecord, scope: RequestScope): Promise<TaskWire> {
    if (record.cancelledAt) return { ...wire(record, 'cancelled'), statusMessage: 'Cancelled: the form was withdrawn.' };
    const result = await readOnce(record, scope);
    const failure = transientFailure(result);
    if (failure) throw failure;
    if (unsettled(result)) return { ...wire(record, 'working'), statusMessage: await statusMessage(record, result, scope) };
    return { ...wire(record, 'completed'), result };
  }

  return {
    start(name, args, resolveScope) {
      // Only a read that would wait becomes a task (wait_ms 0 reads once, as today; a bad
      // wait_ms gets the tool's own INVALID_ARGUMENTS).
      if (name !== 'sess_response' || !isPlainObject(args) || !waits(args.wait_ms)) return undefined;
      return (async () => {
        const scope = await scopeOf(resolveScope);
        const first = await tools.call(name, { ...args, wait_ms: 0 }, () => scope);
        if (!unsettled(first)) return first;
        const at = now().toISOString();
        const record: TaskRecord = {
          ...ownerOf(scope),
          taskId: `tsk_${newSecret(24)}`,
          tool: 'sess_response',
          handle: String(args.handle),
          revision: Number(args.revision),
          createdAt: at,
          updatedAt: at,
        };
        // Durable before it is returned: a tasks/get on any replica finds it.
        await store.insert(record);
        return {
          resultType: 'task' as const,
          ...wire(record, 'working'),
          statusMessage: await statusMessage(record, first, scope),
        };
      })();
    },

    async get(taskId, resolveScope) {
      const scope = await scopeOf(resolveScope);
      const record = await store.get(taskId, ownerOf(scope));
      if (!record) throw notFound();
      return current(record, scope);
    },

    async update(taskId, resolveScope) {
      const scope = await scopeOf(resolveScope);
      if (!(await store.get(taskId, ownerOf(scope)))) throw notFound();
    },

    async cancel(taskId, resolveScope) {
      const scope = await scopeOf(resolveScope);
      const owner = ownerOf(scope);
      const record = await store.get(taskId, owner);
      if (!record) throw notFound();
      if (record.cancelledAt) return;
      // A task that has settled stays as it ended; cancellation is cooperative.
      if ((await current(record, scope)).status !== 'working') return;
      const withdrawn = await tools.call('sess_cancel', { handle: record.handle }, () => scope);
      const failure = transientFailure(withdrawn);
      if (failure) throw failure;
      if (withdrawn.isError) return;
      await store.cancel(taskId, owner, now());
    },
  };
}
