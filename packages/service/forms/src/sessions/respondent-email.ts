import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import type { SessionView } from '../model/views.ts';
import type { WorkspaceContext } from './context.ts';

/*
 * Who answered, by e-mail, for the one reader entitled to it: the workspace itself, through its
 * own API keys (/v1, hosted /mcp with a key, so sess-mcp and OpenClaw). Its owners name the
 * people a form is for by these very addresses. A person's own OAuth connection gets none (the
 * form is theirs: they answered it), and the receipt never carries it: receipts travel to
 * third parties, and its `respondent` is an opaque id. Read from `form_answers.answered_by_user_id`,
 * scoped to the workspace, only for an answer above `link`.
 */

/** `view` with `response.respondentEmail` when `ctx` is entitled to it and the answer names an account. */
export async function withRespondentEmail(ctx: WorkspaceContext, view: SessionView): Promise<SessionView> {
  const response = view.response;
  if (ctx.madeBy?.kind === 'person' || !response || response.respondent === undefined) return view;
  const [row] = await queryRows<{ email: string }>(
    ctx.runtime.database.db,
    sql`select u.email from form_answers a join users u on u.id = a.answered_by_user_id
         where a.id = ${response.eventId} and a.workspace_id = ${ctx.workspaceId}`,
  );
  return row ? { ...view, response: { ...response, respondentEmail: row.email } } : view;
}
