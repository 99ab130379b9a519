import type { Db, Tx } from '@sess/db';
import { enqueueFormNotice, workspaceOwnersWantApiKeyForms } from './enqueue.ts';
import type { NotifySealers } from './sealers.ts';

/** How long a workspace's "does anyone want API-key forms" answer is trusted: a changed setting takes effect within it. */
export const API_KEY_NOTICES_TTL_MS = 5_000;
/** The most workspaces the answer is kept for (the oldest goes first). */
const CACHE_MAX = 10_000;

/**
 * The hooks @sess/forms' `FormsRuntimeOptions.apiKeyNotices` takes, written here by shape (notify
 * never imports forms; apps/server passes one to the other, and tsc checks the fit there).
 */
export interface ApiKeyNotices {
  wanted(workspaceId: string): Promise<boolean>;
  enqueue(
    tx: Tx,
    form: { workspaceId: string; sessionId: string; title: string; url: string; expiresAt: Date },
  ): Promise<boolean>;
}

/**
 * The forms runtime's `apiKeyNotices` (forms made through /v1 with a workspace API key):
 * `wanted` asks whether any owner chose "API key forms" and can be reached, cached
 * per workspace for `API_KEY_NOTICES_TTL_MS` (one read shared by the creates of that moment), so
 * a workspace where nobody opted in keeps the one-statement create; `enqueue` writes the
 * owners' notice in the create's transaction.
 */
export function createApiKeyNotices(deps: {
  db: Db;
  sealers: NotifySealers;
  emailAvailable: boolean;
  now: () => Date;
}): ApiKeyNotices {
  const options = { emailAvailable: deps.emailAvailable };
  const answers = new Map<string, { at: number; wanted: Promise<boolean> }>();
  return {
    wanted(workspaceId) {
      const at = deps.now().getTime();
      const cached = answers.get(workspaceId);
      if (cached && at - cached.at >= 0 && at - cached.at < API_KEY_NOTICES_TTL_MS) return cached.wanted;
      answers.delete(workspaceId);
      if (answers.size >= CACHE_MAX) answers.delete(answers.keys().next().value as string);
      const wanted = workspaceOwnersWantApiKeyForms(deps.db, workspaceId, options);
      answers.set(workspaceId, { at, wanted });
      // A failed read is not remembered: the next create asks again.
      wanted.catch(() => {
        if (answers.get(workspaceId)?.wanted === wanted) answers.delete(workspaceId);
      });
      return wanted;
    },
    enqueue: (tx, form) =>
      enqueueFormNotice(
        tx,
        deps.sealers,
        { ...form, recipient: { workspaceOwners: true }, kind: 'form', now: deps.now() },
        options,
      ),
  };
}
