import { describe, expect, it } from 'vitest';
import { checkPassword } from './check-password.ts';
import { hashPassword, needsRehash, SCRYPT_PARAMS, verifyAgainstDummy, verifyPassword } from './password-hash.ts';

describe('password hashing (scrypt)', () => {
  it('stores a self-describing string with a per-password random salt', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(needsRehash(a)).toBe(false);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('normalises with NFKC, so the same password typed two ways matches', async () => {
    const stored = await hashPassword('caf\u00e9 au lait!');
    expect(await verifyPassword('cafe\u0301 au lait!', stored)).toBe(true);
  });

  it('verifies a hash made with older parameters and asks for a re-hash', async () => {
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const hash = scryptSync('old password here', salt, 32, { N: 1024, r: 8, p: 1 });
    const old = `scrypt$1024$8$1$${salt.toString('base64url')}$${hash.toString('base64url')}`;
    expect(await verifyPassword('old password here', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });

  it.each([
    ['not scrypt', 'bcrypt$2b$10$abc'],
    ['N not a power of two', 'scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['N absurdly large', `scrypt$${2 ** 24}$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`],
    ['r out of range', 'scrypt$1024$99$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['missing parts', 'scrypt$1024$8$1'],
    ['empty', ''],
  ])('never matches a malformed stored value (%s)', async (_name, stored) => {
    expect(await verifyPassword('anything at all', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });

  // The dummy's time next to a real check's is measured in bench/accounts/password-dummy.ts.
  it('the dummy check fails whatever it is given', async () => {
    expect(await verifyAgainstDummy('wrong password here')).toBe(false);
    expect(await verifyAgainstDummy('')).toBe(false);
  });

  it('uses parameters a reviewer would accept', () => {
    expect(SCRYPT_PARAMS.N).toBeGreaterThanOrEqual(2 ** 15);
    expect(SCRYPT_PARAMS.r).toBe(8);
    expect(SCRYPT_PARAMS.p).toBe(1);
  });
});

describe('checkPassword', () => {
  it.each([
    ['123456789', 'Use at least 10 characters.'],
    ['1234567890', null],
    ['x'.repeat(256), null],
    ['x'.repeat(257), 'Use at most 256 characters.'],
    ['x'.repeat(5000), 'Use at most 256 characters.'],
    ['🙂🙂🙂🙂🙂🙂🙂🙂🙂', 'Use at least 10 characters.'],
    ['🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂', null],
  ])('%j → %j', (password, problem) => {
    expect(checkPassword(password)).toBe(problem);
  });
});
