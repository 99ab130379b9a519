import { hashSecret, isSessError, SessError } from '@sess/core';
import { type Db, mcpTasks } from '@sess/db';
import type { TaskOwner, TaskRecord, TaskStore } from '@sess/interactions';
import { and, eq, isNull, type SQL } from 'drizzle-orm';

/*
 * The PostgreSQL task store of the MCP Tasks extension (`mcp_tasks`). A task id is kept only as
 * its SHA-256, so a read of the table never yields a usable id; every read is scoped to its owner.
 * A task is deleted with its handle (the handle sweep's cascade), so it needs no sweep of its own.
 */

type Row = typeof mcpTasks.$inferSelect;

function storeError(error: unknown): SessError {
  if (isSessError(error)) return error;
  return new SessError(
    'STATE_STORE_ERROR',
    'The task store could not be read or written. Try again in a moment.',
    {},
    { cause: error },
  );
}

function ownedBy(taskId: string, owner: TaskOwner): SQL {
  return and(
    eq(mcpTasks.taskIdSha256, hashSecret(taskId)),
    eq(mcpTasks.workspaceId, owner.workspaceId),
    eq(mcpTasks.principalId, owner.principalId),
    eq(mcpTasks.clientId, owner.clientId),
  )!;
}

function toRecord(taskId: string, row: Row): TaskRecord {
  return {
    taskId,
    workspaceId: row.workspaceId,
    principalId: row.principalId,
    clientId: row.clientId,
    tool: row.tool,
    handle: row.handle,
    revision: row.revision,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.cancelledAt ? { cancelledAt: row.cancelledAt.toISOString() } : {}),
  };
}

export function createPostgresTaskStore(options: { db: Db }): TaskStore {
  const { db } = options;
  return {
    async insert(record) {
      try {
        await db.insert(mcpTasks).values({
          taskIdSha256: hashSecret(record.taskId),
          workspaceId: record.workspaceId,
          principalId: record.principalId,
          clientId: record.clientId,
          tool: record.tool,
          handle: record.handle,
          revision: record.revision,
          createdAt: new Date(record.createdAt),
          updatedAt: new Date(record.updatedAt),
        });
      } catch (error) {
        throw storeError(error);
      }
    },
    async get(taskId, owner) {
      try {
        const [row] = await db.select().from(mcpTasks).where(ownedBy(taskId, owner)).limit(1);
        return row && toRecord(taskId, row);
      } catch (error) {
        throw storeError(error);
      }
    },
    async cancel(taskId, owner, at) {
      try {
        // The first cancel sets the time; a repeat changes nothing and reads the row as it is.
        await db
          .update(mcpTasks)
          .set({ cancelledAt: at, updatedAt: at })
          .where(and(ownedBy(taskId, owner), isNull(mcpTasks.cancelledAt)));
        const [row] = await db.select().from(mcpTasks).where(ownedBy(taskId, owner)).limit(1);
        return row && toRecord(taskId, row);
      } catch (error) {
        throw storeError(error);
      }
    },
  };
}
