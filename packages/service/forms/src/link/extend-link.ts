import { hashSecret } from '@sess/core';
import { queryRows } from '@sess/db';
import { sql } from 'drizzle-orm';
import { linkClosed, linkNotFound } from '../model/errors.ts';
import { classifyToken } from '../model/link-tokens.ts';
import { isoParam, stateAllows } from '../model/sql-values.ts';
import type { LinkView } from '../model/views.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { FORM_EVENTS_CHANNEL } from '../waits/waiter-hub.ts';
import { openLink } from './open-link.ts';

/**
 * "Ask for more time" on a lapsed link. A link created with `expires_in` of 20 hours or less is
 * extendable: once past its deadline (state `lapsed`), the person may extend it by its original
 * lifetime from now, never past its horizon (creation + `SESS_LINK_HORIZON_SECONDS`, default
 * 7 days). Past the horizon the link is expired for good.
 *
 * Idempotent for the page: on a link that is `open` or `answered` it changes nothing and returns
 * the view (a double click, or another tab, extended it already).
 * @returns the link's view after the extension.
 * @throws SessError `NOT_FOUND`; `LINK_CLOSED` (with `details.state`) when it is expired,
 * completed or withdrawn, or is an Ask (Asks have one deadline for everyone).
 */
export async function extendLink(runtime: FormsRuntime, token: string): Promise<LinkView> {
  const kind = classifyToken(token);
  if (!kind) throw linkNotFound();
  if (kind === 'link') {
    const at = isoParam(runtime.now());
    await queryRows(
      runtime.database.db,
      sql`with up as (
            update form_sessions s
               set deadline_at = least(greatest(s.deadline_at, ${at}::timestamptz + s.lifetime_seconds * interval '1 second'), s.closes_at),
                   extended_at = ${at}::timestamptz
             where s.link_token_hash = ${hashSecret(token)} and s.kind = 'interaction' and s.extendable and ${stateAllows('s.state', 'extended')}
               and s.deadline_at <= ${at}::timestamptz and s.closes_at > ${at}::timestamptz
               and not exists (select 1 from form_answers a
                                where a.session_id = s.id and a.revision = s.current_revision and a.respondent_id is null)
            returning s.id, s.current_revision)
          select pg_notify(${FORM_EVENTS_CHANNEL}, id || ' ' || current_revision) as notified from up`,
    );
  }
  const view = await openLink(runtime, token);
  switch (view.state) {
    case 'expired':
    case 'completed':
    case 'withdrawn':
    case 'closed':
      throw linkClosed(view.state);
    default:
      return view;
  }
}
