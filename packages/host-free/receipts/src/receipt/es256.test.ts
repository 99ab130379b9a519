import { compactVerify, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createReceiptSigner, type ReceiptSigner } from '../keys/create-receipt-signer.ts';
import { importReceiptPublicKey } from '../keys/receipt-jwk.ts';
import { freshKeys, receiptInput, signRaw } from '../test-fixtures.ts';
import { signEs256, verifyEs256 } from './es256.ts';
import { signReceipt } from './sign-receipt.ts';

let signer: ReceiptSigner;
let publicKey: CryptoKey;
beforeAll(async () => {
  const [key] = await freshKeys(1);
  signer = await createReceiptSigner(key!);
  publicKey = await importReceiptPublicKey(key!.publicJwk);
});

const input = 'eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ';

describe('ES256 with node:crypto', () => {
  it('a receipt it signs is a standard JWS: jose verifies it with the public key', async () => {
    const receipt = await signReceipt(signer, receiptInput());
    const { payload, protectedHeader } = await compactVerify(receipt, publicKey, { algorithms: ['ES256'] });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: signer.kid, typ: 'sess-receipt+jwt' });
    expect(JSON.parse(Buffer.from(payload).toString('utf8')).session_id).toBe(receiptInput().sessionId);
  });

  it('verifies what jose signs, and nothing once one byte of the input changes', async () => {
    const jws = await signRaw(signer.privateKey, { alg: 'ES256' }, { a: 1 });
    const [header, payload, signature] = jws.split('.') as [string, string, string];
    expect(verifyEs256(publicKey, `${header}.${payload}`, signature)).toBe(true);
    expect(verifyEs256(publicKey, `${header}.${payload}x`, signature)).toBe(false);
  });

  it('accepts only the one encoding of the 64 signature bytes', () => {
    const signature = signEs256(signer.privateKey, input);
    expect(signature).toHaveLength(86);
    expect(verifyEs256(publicKey, input, signature)).toBe(true);
    // The last character carries 2 bits of the signature and 4 unused bits: flipping an unused
    // bit decodes to the same bytes, and is still refused.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytes = signature.slice(0, -1) + last[last.indexOf(signature.at(-1)!) ^ 1];
    expect(Buffer.from(sameBytes, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expect(verifyEs256(publicKey, input, sameBytes)).toBe(false);
    for (const bad of ['', signature.slice(0, 40), `${signature}A`, `${signature.slice(0, -2)}==`]) {
      expect(verifyEs256(publicKey, input, bad)).toBe(false);
    }
  });

  it('a key that is not a P-256 key of the right kind signs nothing and verifies nothing', async () => {
    const p384 = await generateKeyPair('ES384');
    const rsa = await generateKeyPair('RS256');
    const signature = signEs256(signer.privateKey, input);
    expect(verifyEs256(p384.publicKey, input, signature)).toBe(false);
    expect(verifyEs256(rsa.publicKey, input, signature)).toBe(false);
    expect(verifyEs256(signer.privateKey, input, signature)).toBe(false);
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    expect(verifyEs256(hmac, input, signature)).toBe(false);
    expect(() => signEs256(publicKey, input)).toThrow(TypeError);
    expect(() => signEs256(p384.privateKey, input)).toThrow(TypeError);
  });
});
