import { isId } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { freshKeys } from '../test-fixtures.ts';
import { createReceiptSigner } from './create-receipt-signer.ts';
import { createSigningKeyRing } from './create-signing-key-ring.ts';
import { generateSigningKey } from './generate-signing-key.ts';

describe('generateSigningKey', () => {
  it('makes an ES256 key with an sk_ kid and separate public and private halves', async () => {
    const createdAt = new Date('2026-01-02T03:04:05.000Z');
    const key = await generateSigningKey({ now: () => createdAt });
    expect(isId('signingKey', key.kid)).toBe(true);
    expect(key.alg).toBe('ES256');
    expect(key.createdAt).toBe(createdAt);
    expect(Object.keys(key.publicJwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(key.privateJwk).toEqual({ ...key.publicJwk, d: expect.any(String) });
  });

  it('makes a different key and kid each time', async () => {
    const [a, b] = await freshKeys(2);
    expect(a!.kid).not.toBe(b!.kid);
    expect(a!.publicJwk.x).not.toBe(b!.publicJwk.x);
  });
});

describe('createReceiptSigner', () => {
  it('imports the private key once, not extractable, for signing only', async () => {
    const [key] = await freshKeys(1);
    const signer = await createReceiptSigner(key!);
    expect(signer.kid).toBe(key!.kid);
    expect(signer.privateKey.extractable).toBe(false);
    expect(signer.privateKey.usages).toEqual(['sign']);
    expect(Object.isFrozen(signer)).toBe(true);
  });

  it('refuses a public key', async () => {
    const [key] = await freshKeys(1);
    await expect(createReceiptSigner({ kid: key!.kid, privateJwk: key!.publicJwk as never })).rejects.toThrow(TypeError);
  });
});

describe('createSigningKeyRing', () => {
  it('publishes the active key, then the previous one', async () => {
    const [active, previous] = await freshKeys(2);
    const ring = await createSigningKeyRing({ active: active!, previous: previous! });
    expect(ring.signer.kid).toBe(active!.kid);
    expect(ring.jwks.keys.map((k) => k.kid)).toEqual([active!.kid, previous!.kid]);
    expect(await ring.keySet.getKey(previous!.kid)).toMatchObject({ found: true });
  });

  it('refuses an active private key that does not match its published public key', async () => {
    const [a, b] = await freshKeys(2);
    await expect(createSigningKeyRing({ active: { ...a!, privateJwk: b!.privateJwk } })).rejects.toThrow(/does not match/);
  });
});
