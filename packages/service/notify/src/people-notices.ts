import type { Tx } from '@sess/db';
import { enqueueFormNotice } from './enqueue.ts';
import type { NotifySealers } from './sealers.ts';

/**
 * The hook @sess/forms' `FormsRuntimeOptions.peopleNotices` takes, written here by shape (notify
 * never imports forms; apps/server passes one to the other, and tsc checks the fit there).
 */
export interface PeopleNotices {
  enqueue(
    tx: Tx,
    form: {
      workspaceId: string;
      sessionId: string;
      title: string;
      url: string;
      expiresAt: Date;
      userIds: readonly string[];
      /** Sent from then on, not at once (an Ask's backup people, at its escalation). */
      notBefore?: Date;
    },
  ): Promise<boolean>;
}

/**
 * An Ask's named respondents told of it, each on their own devices (or e-mail): the Ask's link
 * and question, in the create's transaction, for each of them a channel reaches.
 */
export function createPeopleNotices(deps: { sealers: NotifySealers; emailAvailable: boolean; now: () => Date }): PeopleNotices {
  const options = { emailAvailable: deps.emailAvailable };
  return {
    enqueue: (tx, { userIds, ...form }) =>
      enqueueFormNotice(tx, deps.sealers, { ...form, recipient: { userIds }, kind: 'form', now: deps.now() }, options),
  };
}
