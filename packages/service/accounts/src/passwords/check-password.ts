/** The shortest password we accept, in characters (code points after NFKC normalisation). */
export const PASSWORD_MIN = 10;
/** The longest: enough for any passphrase, small enough that hashing stays cheap to bound. */
export const PASSWORD_MAX = 256;

/**
 * Why `password` cannot be used, or null when it can. Length is the only rule (NIST SP 800-63B
 * §5.1.1.2: no composition rules); it is counted in code points after NFKC normalisation, the
 * form that is hashed.
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#memsecretver
 */
export function checkPassword(password: string): string | null {
  // A raw cap first: NFKC can expand a string many times over.
  if (password.length > PASSWORD_MAX * 4) return `Use at most ${PASSWORD_MAX} characters.`;
  const length = [...password.normalize('NFKC')].length;
  if (length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  return null;
}
