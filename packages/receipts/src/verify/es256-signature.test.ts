import { createPrivateKey, sign } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { importReceiptPublicKey } from '../keys/receipt-jwk.ts';
import { verifyEs256 } from './es256-signature.ts';

const INPUT = 'eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ';

async function p256(): Promise<{ privatePem: ReturnType<typeof createPrivateKey>; publicKey: CryptoKey }> {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(pair.privateKey);
  return {
    privatePem: createPrivateKey({ key: jwk as never, format: 'jwk' }),
    publicKey: await importReceiptPublicKey({ kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! }),
  };
}

function es256(
  key: ReturnType<typeof createPrivateKey>,
  input: string,
  dsaEncoding: 'ieee-p1363' | 'der' = 'ieee-p1363',
): string {
  return sign('sha256', Buffer.from(input), { key, dsaEncoding }).toString('base64url');
}

describe('verifyEs256', () => {
  it('accepts a signature over exactly this signing input, with this key', async () => {
    const a = await p256();
    const signature = es256(a.privatePem, INPUT);
    expect(verifyEs256(INPUT, signature, a.publicKey)).toBe(true);
    expect(verifyEs256(`${INPUT}x`, signature, a.publicKey)).toBe(false);
  });

  it('refuses a DER signature, an empty one and one of the wrong length', async () => {
    const a = await p256();
    expect(verifyEs256(INPUT, es256(a.privatePem, INPUT, 'der'), a.publicKey)).toBe(false);
    expect(verifyEs256(INPUT, '', a.publicKey)).toBe(false);
    expect(verifyEs256(INPUT, `${es256(a.privatePem, INPUT)}AA`, a.publicKey)).toBe(false);
  });

  it('a key converted once still tells keys apart: a new key (a rotation, even under the same kid) is its own entry', async () => {
    const a = await p256();
    const b = await p256();
    const signedByA = es256(a.privatePem, INPUT);
    // Warm the conversion of both keys, in both orders, then check again.
    for (let round = 0; round < 2; round++) {
      expect(verifyEs256(INPUT, signedByA, a.publicKey)).toBe(true);
      expect(verifyEs256(INPUT, signedByA, b.publicKey)).toBe(false);
      expect(verifyEs256(INPUT, es256(b.privatePem, INPUT), b.publicKey)).toBe(true);
    }
  });

  it('fails closed on a key that is not a P-256 public key', async () => {
    const a = await p256();
    const signature = es256(a.privatePem, INPUT);
    const p384 = await generateKeyPair('ES384');
    const hmac = await crypto.subtle.importKey('raw', new Uint8Array(32), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    expect(verifyEs256(INPUT, signature, p384.publicKey)).toBe(false);
    expect(verifyEs256(INPUT, signature, hmac)).toBe(false);
  });
});
