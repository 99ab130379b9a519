import type { DbOrTx } from '@sess/db';
import type { BackendContext } from '@sess/interactions';
import {
  enqueueAskWatch,
  enqueueFormNotice,
  formNoticeRow,
  type NoticeRecipient,
  type NotifySealers,
  type ReachCache,
} from '@sess/notify';
import { API_KEY_PRINCIPAL_PREFIX } from './api-key-principal.ts';

/** A form just written, as its notice needs it. */
export interface NoticedForm {
  sessionId: string;
  /** The Surface's title (an Ask's question). */
  title: string;
  /** The link, `humanUrl`: sealed in the outbox, never logged. */
  url: string;
  /** When the link lapses (ISO 8601): the push's TTL ends there. */
  expiresAt: string;
  /** Sent from then on, not at once (an Ask's backup people, at its escalation). */
  notBefore?: Date;
}

/**
 * The hosted MCP creates' notifications, written in the create's (or publish's) own transaction
 * so they commit with the form or not at all; the worker sends them after commit.
 */
export interface FormNotices {
  /**
   * A new form's notice for the caller's person, as the row of @sess/notify's
   * `FORM_NOTICE_COMPANION`: written in the create's own statement (`notified` when it wrote one),
   * which also wakes the workers on its commit. Undefined when nothing reaches the person.
   */
  formRow(ctx: BackendContext, form: NoticedForm): Promise<Record<string, unknown> | undefined>;
  /** sess_publish showed a new revision on the same link (`follow_up`, the same Topic). */
  followUp(tx: DbOrTx, ctx: BackendContext, form: NoticedForm): Promise<void>;
  /** A new Ask: its owner is told of its answers or its close. True when anyone watches it. */
  askWatch(tx: DbOrTx, ctx: BackendContext, form: NoticedForm): Promise<boolean>;
  /**
   * A new Ask with named respondents: each of `userIds` gets its link and question on their own
   * devices (from `form.notBefore`, when given: an Ask's backup people). True when anyone will be told.
   */
  askPeople(tx: DbOrTx, ctx: BackendContext, form: NoticedForm, userIds: readonly string[]): Promise<boolean>;
}

/**
 * Whom a form of this principal is for: an OAuth grant's person (its principal id is the user id,
 * the token's `sub`), or for a workspace API key the workspace's owners who chose to be told.
 */
export function recipientOf(principalId: string): NoticeRecipient {
  return principalId.startsWith(API_KEY_PRINCIPAL_PREFIX) ? { workspaceOwners: true } : { userId: principalId };
}

export function createFormNotices(deps: {
  sealers: NotifySealers;
  emailAvailable: boolean;
  /** People's reach (devices, settings), so a create neither looks them up nor writes for no one. */
  reach: ReachCache;
  now: () => Date;
}): FormNotices {
  const options = { emailAvailable: deps.emailAvailable };
  const notice = (ctx: BackendContext, form: NoticedForm) => ({
    workspaceId: ctx.workspaceId,
    sessionId: form.sessionId,
    recipient: recipientOf(ctx.principalId),
    title: form.title,
    url: form.url,
    expiresAt: new Date(form.expiresAt),
    now: deps.now(),
  });
  return {
    async formRow(ctx, form) {
      const made = notice(ctx, form);
      if (!('userId' in made.recipient)) return formNoticeRow(deps.sealers, made, options);
      const reach = await deps.reach.of(made.recipient.userId);
      return reach.reachable ? formNoticeRow(deps.sealers, made, { ...options, reminders: reach.reminders }) : undefined;
    },
    async followUp(tx, ctx, form) {
      const made = notice(ctx, form);
      if ('userId' in made.recipient && !(await deps.reach.of(made.recipient.userId)).reachable) return;
      await enqueueFormNotice(tx, deps.sealers, { ...made, kind: 'follow_up' }, options);
    },
    askWatch: (tx, ctx, form) => enqueueAskWatch(tx, deps.sealers, notice(ctx, form), options),
    askPeople: (tx, ctx, form, userIds) =>
      enqueueFormNotice(
        tx,
        deps.sealers,
        { ...notice(ctx, form), recipient: { userIds }, kind: 'form', notBefore: form.notBefore },
        options,
      ),
  };
}
