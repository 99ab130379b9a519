import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (node:crypto) and stored as a self-describing string
 * `scrypt$N$r$p$salt$hash` (salt and hash base64url), so the cost can be raised later and old
 * hashes still verify (and are upgraded at the next sign-in, see `needsRehash`).
 *
 * N = 2^15, r = 8, p = 1 costs 32 MiB and ~60–200 ms per hash on our hardware: as slow as a
 * sign-in can afford, with p = 1 so one sign-in occupies one libuv thread.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function derive(
  password: string,
  salt: Buffer,
  { N, r, p }: { N: number; r: number; p: number },
  length: number,
): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; the default maxmem (32 MiB) is exactly N = 2^15, r = 8, so leave headroom.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A new hash of `password` with a fresh random salt and the current parameters. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, SCRYPT_PARAMS, KEY_LENGTH);
  const { N, r, p } = SCRYPT_PARAMS;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

// Bounds on stored parameters, so a corrupted or hostile row cannot make a sign-in allocate
// gigabytes or spin for minutes.
function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^\d{1,8}$/.test(part) ? Number(part) : Number.NaN)) as [
    number,
    number,
    number,
  ];
  const powerOfTwo = N >= 2 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > 2 ** 20 || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) return null;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const hash = Buffer.from(parts[5]!, 'base64url');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return null;
  return { N, r, p, salt, hash };
}

/**
 * True when `password` matches `stored`, compared in constant time. A malformed `stored`
 * never matches (and still costs one hash, so it is not a timing tell).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) {
    await verifyAgainstDummy(password);
    return false;
  }
  const candidate = await derive(password, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when `stored` was made with other parameters than today's (re-hash it after a sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  return (
    !parsed ||
    parsed.N !== SCRYPT_PARAMS.N ||
    parsed.r !== SCRYPT_PARAMS.r ||
    parsed.p !== SCRYPT_PARAMS.p ||
    parsed.hash.length !== KEY_LENGTH
  );
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same time as a real verification and always fails. Called for an unknown e-mail
 * (or an account without a password), so the response time does not say whether it exists.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(18).toString('base64url'));
  const stored = parseHash(await dummy)!;
  const candidate = await derive(password, stored.salt, stored, stored.hash.length);
  timingSafeEqual(candidate, stored.hash);
  return false;
}
