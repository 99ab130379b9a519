import { createHash } from 'node:crypto';

/**
 * The RFC 8030 `Topic` of everything told about one form (and the notification's tag on the
 * device): a later notification replaces an earlier one that is not yet delivered or still
 * shown. 32 base64url characters (the header's limit), a hash so the push service never sees
 * the session id.
 */
export function topicOf(sessionId: string): string {
  return createHash('sha256').update(`sess-notify-topic:${sessionId}`).digest('base64url').slice(0, 32);
}
