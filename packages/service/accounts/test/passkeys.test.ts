/*
 * Passkeys below the pages, on both drivers: registration, password-less sign-in and the answer
 * ceremony primitive, each against a software authenticator (test/soft-authenticator.ts) that
 * sends what a browser's PublicKeyCredential.toJSON() sends. The clock is injected. The browser
 * with a virtual authenticator is apps/server/test/passkeys-browser.test.ts.
 */
import {
  CHALLENGE_TTL_MS,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  listPasskeys,
  relyingPartyOf,
  startAnswerCeremony,
  startPasskeyRegistration,
  startPasskeySignIn,
  verifyAnswerAssertion,
} from '@sess/accounts';
import { webauthnChallenges } from '@sess/db';
import { createTestDatabase, createTestUser, type TestDatabase, type TestUser } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from './helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

const ORIGIN = 'https://sess.test';
const rp = relyingPartyOf(ORIGIN);
const clock = createClock();
let database: TestDatabase;
let alice: TestUser;
let bob: TestUser;
let aliceDevice: SoftAuthenticator;
let bobDevice: SoftAuthenticator;

async function register(user: TestUser, device: SoftAuthenticator, name = 'laptop') {
  const options = await startPasskeyRegistration(database.db, rp, { userId: user.userId, email: user.email, now: clock.now() });
  return finishPasskeyRegistration(database.db, rp, {
    userId: user.userId,
    name,
    response: device.create(options),
    now: clock.now(),
  });
}

const BOUND = 'ses_123 2 0f1e2d';

beforeAll(async () => {
  database = await createTestDatabase();
  alice = await createTestUser(database.db, { now: clock.now() });
  bob = await createTestUser(database.db, { now: clock.now() });
  aliceDevice = new SoftAuthenticator(ORIGIN);
  bobDevice = new SoftAuthenticator(ORIGIN);
  expect((await register(alice, aliceDevice)).ok).toBe(true);
  expect((await register(bob, bobDevice)).ok).toBe(true);
});
afterAll(async () => {
  await database?.destroy();
});

describe('registration', () => {
  it('asks for a discoverable credential with user verification, excluding the passkeys already there', async () => {
    const options = await startPasskeyRegistration(database.db, rp, {
      userId: alice.userId,
      email: alice.email,
      now: clock.now(),
    });
    expect(options.rp).toEqual({ id: 'sess.test', name: 'Sess' });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([aliceDevice.credentials[0]!.id]);
    // The user handle is the account id, never the e-mail.
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(alice.userId);
  });

  it('stores several named passkeys per person; lists them oldest first', async () => {
    const second = new SoftAuthenticator(ORIGIN);
    clock.advance(1000);
    const added = await register(alice, second, 'phone');
    expect(added).toMatchObject({ ok: true, name: 'phone', lastUsedAt: null });
    expect((await listPasskeys(database.db, alice.userId)).map((p) => p.name)).toEqual(['laptop', 'phone']);
  });

  it('refuses a device that does not verify its person, and keeps nothing', async () => {
    const device = new SoftAuthenticator(ORIGIN);
    device.userVerified = false;
    expect(await register(alice, device, 'no uv')).toEqual({ ok: false, reason: 'no_user_verification' });
    expect((await listPasskeys(database.db, alice.userId)).map((p) => p.name)).not.toContain('no uv');
  });

  it('refuses a bad name before spending the challenge', async () => {
    const device = new SoftAuthenticator(ORIGIN);
    const options = await startPasskeyRegistration(database.db, rp, {
      userId: alice.userId,
      email: alice.email,
      now: clock.now(),
    });
    const response = device.create(options);
    await expect(
      finishPasskeyRegistration(database.db, rp, { userId: alice.userId, name: '  ', response, now: clock.now() }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS', details: { field: '/name' } });
    expect(
      await finishPasskeyRegistration(database.db, rp, { userId: alice.userId, name: 'ok', response, now: clock.now() }),
    ).toMatchObject({ ok: true });
  });

  it("refuses another person's registration challenge and another origin", async () => {
    const options = await startPasskeyRegistration(database.db, rp, { userId: bob.userId, email: bob.email, now: clock.now() });
    const device = new SoftAuthenticator(ORIGIN);
    expect(
      await finishPasskeyRegistration(database.db, rp, {
        userId: alice.userId,
        name: 'x',
        response: device.create(options),
        now: clock.now(),
      }),
    ).toEqual({ ok: false, reason: 'wrong_binding' });
    const elsewhere = new SoftAuthenticator('https://evil.test', 'sess.test');
    const again = await startPasskeyRegistration(database.db, rp, { userId: alice.userId, email: alice.email, now: clock.now() });
    expect(
      await finishPasskeyRegistration(database.db, rp, {
        userId: alice.userId,
        name: 'x',
        response: elsewhere.create(again),
        now: clock.now(),
      }),
    ).toEqual({ ok: false, reason: 'bad_signature' });
  });
});

describe('password-less sign-in', () => {
  it('signs in with a discoverable credential: no e-mail, no allowCredentials', async () => {
    const options = await startPasskeySignIn(database.db, rp, clock.now());
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    expect(await finishPasskeySignIn(database.db, rp, { response: aliceDevice.get(options), now: clock.now() })).toEqual({
      ok: true,
      userId: alice.userId,
    });
    const [laptop] = await listPasskeys(database.db, alice.userId);
    expect(laptop!.lastUsedAt).toEqual(clock.now());
  });

  it('refuses an answer challenge used to sign in', async () => {
    const options = await startAnswerCeremony(database.db, rp, { userId: alice.userId, boundTo: BOUND, now: clock.now() });
    expect(await finishPasskeySignIn(database.db, rp, { response: aliceDevice.get(options), now: clock.now() })).toEqual({
      ok: false,
      reason: 'wrong_binding',
    });
  });
});

describe('the answer ceremony', () => {
  async function answer(device: SoftAuthenticator, options?: { userId?: string; boundTo?: string }) {
    const started = await startAnswerCeremony(database.db, rp, { userId: alice.userId, boundTo: BOUND, now: clock.now() });
    const response = device.get(started);
    return {
      started,
      response,
      result: await verifyAnswerAssertion(database.db, rp, {
        userId: options?.userId ?? alice.userId,
        boundTo: options?.boundTo ?? BOUND,
        response,
        now: clock.now(),
      }),
    };
  }

  it("offers only the person's passkeys and returns the credential and the assertion's digest", async () => {
    const { started, result } = await answer(aliceDevice);
    expect(started.allowCredentials?.map((c) => c.id).sort()).toEqual(
      (await listPasskeys(database.db, alice.userId)).map((p) => p.id).sort(),
    );
    expect(result).toEqual({
      ok: true,
      credentialId: aliceDevice.credentials[0]!.id,
      assertionSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('refuses a replay of the same assertion (the challenge is spent)', async () => {
    const { response, result } = await answer(aliceDevice);
    expect(result.ok).toBe(true);
    expect(
      await verifyAnswerAssertion(database.db, rp, { userId: alice.userId, boundTo: BOUND, response, now: clock.now() }),
    ).toEqual({
      ok: false,
      reason: 'challenge_expired_or_used',
    });
  });

  it('refuses a counter that did not increase (a cloned authenticator)', async () => {
    aliceDevice.credentials[0]!.counter -= 3;
    expect((await answer(aliceDevice)).result).toEqual({ ok: false, reason: 'replayed' });
    aliceDevice.credentials[0]!.counter += 10;
    expect((await answer(aliceDevice)).result.ok).toBe(true);
  });

  it("refuses another person's credential", async () => {
    expect((await answer(bobDevice)).result).toEqual({ ok: false, reason: 'other_user_credential' });
  });

  it("refuses a user handle that is not the credential's account", async () => {
    const started = await startAnswerCeremony(database.db, rp, { userId: alice.userId, boundTo: BOUND, now: clock.now() });
    const response = aliceDevice.get(started) as { response: { userHandle?: string } };
    response.response.userHandle = Buffer.from(bob.userId).toString('base64url');
    expect(
      await verifyAnswerAssertion(database.db, rp, { userId: alice.userId, boundTo: BOUND, response, now: clock.now() }),
    ).toEqual({
      ok: false,
      reason: 'other_user_credential',
    });
  });

  it('refuses an unknown credential', async () => {
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x' });
    expect((await answer(stranger)).result).toEqual({ ok: false, reason: 'unknown_credential' });
  });

  it('refuses an assertion without user verification', async () => {
    aliceDevice.userVerified = false;
    try {
      expect((await answer(aliceDevice)).result).toEqual({ ok: false, reason: 'no_user_verification' });
    } finally {
      aliceDevice.userVerified = true;
    }
  });

  it('refuses a tampered assertion (signature or signed data changed)', async () => {
    const started = await startAnswerCeremony(database.db, rp, { userId: alice.userId, boundTo: BOUND, now: clock.now() });
    const response = aliceDevice.get(started) as { response: { signature: string } };
    const signature = Buffer.from(response.response.signature, 'base64url');
    signature[signature.length - 1]! ^= 0x01;
    response.response.signature = signature.toString('base64url');
    expect(
      await verifyAnswerAssertion(database.db, rp, { userId: alice.userId, boundTo: BOUND, response, now: clock.now() }),
    ).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('refuses another binding (another answer, revision or session) and another person', async () => {
    expect((await answer(aliceDevice, { boundTo: 'ses_123 3 0f1e2d' })).result).toEqual({ ok: false, reason: 'wrong_binding' });
    expect((await answer(bobDevice, { userId: bob.userId })).result).toEqual({ ok: false, reason: 'wrong_binding' });
  });

  it('refuses an expired challenge (5 minutes) and deletes it', async () => {
    const started = await startAnswerCeremony(database.db, rp, { userId: alice.userId, boundTo: BOUND, now: clock.now() });
    const response = aliceDevice.get(started);
    clock.advance(CHALLENGE_TTL_MS);
    expect(
      await verifyAnswerAssertion(database.db, rp, { userId: alice.userId, boundTo: BOUND, response, now: clock.now() }),
    ).toEqual({
      ok: false,
      reason: 'challenge_expired_or_used',
    });
  });

  it('refuses garbage without throwing', async () => {
    for (const response of [null, 'x', {}, { id: 'a', rawId: 'b', type: 'public-key', response: {} }]) {
      expect(
        await verifyAnswerAssertion(database.db, rp, { userId: alice.userId, boundTo: BOUND, response, now: clock.now() }),
      ).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('stores only the hash of each challenge', async () => {
    const started = await startAnswerCeremony(database.db, rp, { userId: alice.userId, boundTo: BOUND, now: clock.now() });
    const rows = await database.db.select().from(webauthnChallenges);
    expect(rows.some((row) => row.challengeHash === started.challenge)).toBe(false);
    expect(JSON.stringify(rows)).not.toContain(started.challenge);
  });

  it('limits ceremonies per account', async () => {
    const results: string[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await startAnswerCeremony(database.db, rp, { userId: bob.userId, boundTo: BOUND, now: clock.now() });
      const result = await verifyAnswerAssertion(database.db, rp, {
        userId: bob.userId,
        boundTo: BOUND,
        response: bobDevice.get(started),
        now: clock.now(),
        accountLimit: 2,
      });
      results.push(result.ok ? 'ok' : result.reason);
    }
    expect(results.at(-1)).toBe('rate_limited');
  });
});
