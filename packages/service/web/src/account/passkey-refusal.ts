import type { MessageKey } from '../i18n/catalog-types.ts';
import type { Messages } from '../i18n/messages.ts';

/** Each passkey refusal's sentence (the reasons are @sess/accounts' `PasskeyRefusalReason`). */
const REFUSAL_KEYS: Readonly<Record<string, MessageKey>> = {
  malformed: 'account.passkeyRefusal.malformed',
  challenge_expired_or_used: 'account.passkeyRefusal.expired',
  wrong_binding: 'account.passkeyRefusal.wrongBinding',
  unknown_credential: 'account.passkeyRefusal.unknownCredential',
  other_user_credential: 'account.passkeyRefusal.otherUser',
  no_user_verification: 'account.passkeyRefusal.noUserVerification',
  bad_signature: 'account.passkeyRefusal.badSignature',
  replayed: 'account.passkeyRefusal.replayed',
  credential_exists: 'account.passkeyRefusal.exists',
  rate_limited: 'account.passkeyRefusal.rateLimited',
  sign_in_first: 'account.passkeyRefusal.signInFirst',
  page_expired: 'account.passkeyRefusal.pageExpired',
};

/** Why a passkey was refused, in the page's language (a reason it does not know: the generic failure). */
export function passkeyRefusalText(m: Messages, reason: string): string {
  return m.t(REFUSAL_KEYS[reason] ?? 'account.passkeyScript.failed');
}
