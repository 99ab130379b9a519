import { isAcceptableText } from '@sess/core';

/** The longest e-mail address we store (RFC 5321 path limit). */
export const EMAIL_MAX = 254;

/**
 * The canonical form of an e-mail address (trimmed, lower-case), the one stored and compared,
 * or null when it does not look like an address or holds a character Sess refuses (core's
 * `findTextProblem`: a noncharacter or a bidirectional control could spoof an address shown on a
 * page). Lower-casing the local part is technically lossy (RFC 5321 lets it be case-sensitive)
 * but no real provider relies on that, and two accounts differing only in case would be a
 * support nightmare.
 */
export function normalizeEmail(raw: unknown): string | null {
  if (typeof raw !== 'string' || !isAcceptableText(raw)) return null;
  const email = raw.trim().toLowerCase();
  if (email.length < 3 || email.length > EMAIL_MAX) return null;
  // One @, something before it, a dotted domain after it, no whitespace or control characters.
  if (!/^[^\s@\x00-\x1f\x7f]{1,64}@[^\s@\x00-\x1f\x7f]+\.[^\s@\x00-\x1f\x7f.]+$/.test(email)) return null;
  return email;
}
