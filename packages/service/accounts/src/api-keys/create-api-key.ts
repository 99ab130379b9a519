import { describeTextProblem, findTextProblem, hashSecret, newId, SessError } from '@sess/core';
import type { DbOrTx } from '@sess/db';
import { apiKeys, workspaces } from '@sess/db';
import { eq } from 'drizzle-orm';
import { apiKeyDisplayPrefix, newApiKey } from './api-key-format.ts';

/** A key just created. `key` is shown once and never stored or shown again. */
export interface CreatedApiKey {
  id: string;
  workspaceId: string;
  name: string;
  /** The full key: show it to the person now; afterwards only `prefix` is known. */
  key: string;
  prefix: string;
  createdAt: Date;
}

export interface CreateApiKeyInput {
  ctx: { db: DbOrTx; now: () => Date };
  input: { workspaceId: string; name: string; createdBy?: string | null };
}

export const API_KEY_NAME_MAX = 100;

/**
 * Creates a workspace-scoped API key for `/v1` (`Authorization: Bearer <key>`). Only its
 * SHA-256 and a 12-character prefix are stored.
 * @throws SessError `INVALID_ARGUMENTS` (name empty, over 100 characters, or holding a character Sess refuses), `NOT_FOUND` (no such workspace).
 */
export async function createApiKey({ ctx, input }: CreateApiKeyInput): Promise<CreatedApiKey> {
  const name = input.name.trim();
  if (name.length === 0 || [...name].length > API_KEY_NAME_MAX) {
    throw new SessError('INVALID_ARGUMENTS', `The key's name must be 1 to ${API_KEY_NAME_MAX} characters.`, {
      field: '/name',
      limit: API_KEY_NAME_MAX,
      length: [...name].length,
    });
  }
  const problem = findTextProblem(name);
  if (problem) {
    throw new SessError('INVALID_ARGUMENTS', `The key's name ${describeTextProblem(problem)}. Remove it.`, { field: '/name' });
  }
  const [workspace] = await ctx.db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, input.workspaceId));
  if (!workspace) throw new SessError('NOT_FOUND', `No workspace ${input.workspaceId}.`, { field: '/workspaceId' });
  const key = newApiKey();
  const created: CreatedApiKey = {
    id: newId('apiKey'),
    workspaceId: input.workspaceId,
    name,
    key,
    prefix: apiKeyDisplayPrefix(key),
    createdAt: ctx.now(),
  };
  await ctx.db.insert(apiKeys).values({
    id: created.id,
    workspaceId: created.workspaceId,
    createdBy: input.createdBy ?? null,
    name,
    prefix: created.prefix,
    keyHash: hashSecret(key),
    createdAt: created.createdAt,
  });
  return created;
}
