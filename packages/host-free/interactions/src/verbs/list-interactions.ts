import { type ListedInteraction, type SessionView, SessListInputSchema } from '@sess/contract';
import { parseArguments } from '@sess/surface';
import { backendContext, type ToolCall } from '../call.ts';
import type { ListStatus } from '../ports/handle-store.ts';

interface ListArgs {
  status?: ListStatus;
  cursor?: string;
  limit?: number;
}

export type { ListedInteraction };

/**
 * sess_list: the caller's own interactions (this principal, through this connection), newest
 * first, from the handle store. Open interactions are refreshed with one status read from the
 * runtime, best effort: a person may have answered (answerReady) or the link may have expired.
 * Read-only: nothing is changed, and no link or answer data is returned.
 */
export async function listInteractions(
  call: ToolCall,
  rawArgs: unknown,
): Promise<{ interactions: ListedInteraction[]; nextCursor?: string }> {
  const args: ListArgs = parseArguments(SessListInputSchema, rawArgs ?? {});
  const listInput: Parameters<typeof call.scope.store.list>[0] = { status: args.status ?? 'open', limit: args.limit ?? 20 };
  if (args.cursor) listInput.cursor = args.cursor;
  const page = await call.scope.store.list(listInput);
  const interactions: ListedInteraction[] = page.records.map((record) => {
    const item: ListedInteraction = {
      handle: record.handle,
      kind: record.kind,
      title: record.title,
      state: record.state,
      revision: record.revision,
    };
    if (record.expiresAt) item.expiresAt = record.expiresAt;
    return item;
  });

  const waiting = page.records.filter(
    (record) => record.state === 'waiting' && record.kind === 'interaction' && record.sessionId,
  );
  if (call.deps.backend && waiting.length > 0) {
    let views: SessionView[] = [];
    try {
      views = await call.deps.backend.listSessions(backendContext(call.scope), {
        sessionIds: waiting.map((record) => record.sessionId!),
      });
    } catch (error) {
      call.deps.logger?.warn({ event: 'mcp.list.status_unavailable', err: error }, 'session status unavailable');
    }
    const bySession = new Map(views.map((view) => [view.sessionId, view]));
    for (const item of interactions) {
      const record = waiting.find((r) => r.handle === item.handle);
      const view = record?.sessionId ? bySession.get(record.sessionId) : undefined;
      if (!view || view.revision !== item.revision) continue;
      item.expiresAt = view.expiresAt;
      if (view.state === 'expired') item.state = 'expired';
      else if (view.state === 'answered') item.answerReady = true;
    }
  }
  return page.nextCursor ? { interactions, nextCursor: page.nextCursor } : { interactions };
}
