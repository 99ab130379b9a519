import { describe, expect, it } from 'vitest';
import { freshKeys } from '../test-fixtures.ts';
import { buildJwks, JWKS_CACHE_CONTROL } from './build-jwks.ts';

describe('buildJwks', () => {
  it('publishes each key with kid, alg ES256 and use sig, in the order given', async () => {
    const [active, previous] = await freshKeys(2);
    const jwks = buildJwks([active!, previous!]);
    expect(jwks).toEqual({
      keys: [
        { ...active!.publicJwk, kid: active!.kid, alg: 'ES256', use: 'sig' },
        { ...previous!.publicJwk, kid: previous!.kid, alg: 'ES256', use: 'sig' },
      ],
    });
  });

  it('never publishes private key material, even when handed a private JWK', async () => {
    const [key] = await freshKeys(1);
    const jwks = buildJwks([{ kid: key!.kid, publicJwk: key!.privateJwk }]);
    expect(JSON.stringify(jwks)).not.toContain(key!.privateJwk.d);
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('refuses a duplicate kid and a non-P-256 key', async () => {
    const [key] = await freshKeys(1);
    expect(() => buildJwks([key!, key!])).toThrow(/duplicate kid/);
    expect(() => buildJwks([{ kid: 'sk_x', publicJwk: { ...key!.publicJwk, crv: 'P-384' as 'P-256' } }])).toThrow(/not a P-256/);
  });
});

describe('JWKS_CACHE_CONTROL', () => {
  it('is public and short-lived, with no stale-while-revalidate to stretch a rotation', () => {
    expect(JWKS_CACHE_CONTROL).toBe('public, max-age=60, stale-if-error=3600');
  });
});
