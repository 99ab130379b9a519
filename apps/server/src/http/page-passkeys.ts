import { listPasskeys, relyingPartyOf, startAnswerCeremony, verifyAnswerAssertion } from '@sess/accounts';
import type { PagePasskeys } from '@sess/answer-pages';
import type { DbOrTx } from '@sess/db';

/**
 * The answer pages' passkey ceremony (a `passkey` form's confirm step) over @sess/accounts: the
 * relying party is PUBLIC_URL's, as for every passkey. An account without a passkey gets no
 * challenge (the page sends it to add one); a refusal comes back with the sentence the person reads.
 */
export function createPagePasskeys(db: DbOrTx, publicUrl: string, now: () => Date): PagePasskeys {
  const rp = relyingPartyOf(publicUrl);
  return {
    async start(userId, boundTo) {
      if ((await listPasskeys(db, userId)).length === 0) return null;
      return startAnswerCeremony(db, rp, { userId, boundTo, now: now() });
    },
    async verify(userId, boundTo, response) {
      const verified = await verifyAnswerAssertion(db, rp, { userId, boundTo, response, now: now() });
      if (verified.ok) return verified;
      return { ok: false, reason: verified.reason };
    },
  };
}
