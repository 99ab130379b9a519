import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildJwks } from '../jwks/build-jwks.ts';
import { createSigningKeyRing, type SigningKeyRing } from '../keys/create-signing-key-ring.ts';
import type { SigningKey } from '../keys/generate-signing-key.ts';
import { signReceipt } from '../receipt/sign-receipt.ts';
import { expectedFor, freshKeys, ISSUER, receiptInput } from '../test-fixtures.ts';
import { toSessError } from '../verify/to-sess-error.ts';
import { verifyReceipt } from '../verify/verify-receipt.ts';
import { createRemoteKeySet, type RemoteKeySetOptions } from './create-remote-key-set.ts';
import type { ReceiptKeySet } from './receipt-key-set.ts';

/**
 * A real JWKS server on 127.0.0.1:0 (no fetch mocks). Tests change what it answers and count
 * what it was asked.
 */
interface JwksServer {
  url: string;
  requests: IncomingHttpHeaders[];
  answer: { status: number; body: string; headers?: Record<string, string> };
  serve(keys: SigningKey[]): void;
  close(): Promise<void>;
}

async function startJwksServer(): Promise<JwksServer> {
  const state: JwksServer = {
    url: '',
    requests: [],
    answer: { status: 200, body: '{"keys":[]}' },
    serve(keys) {
      this.answer = { status: 200, body: JSON.stringify(buildJwks(keys)) };
    },
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
  const server: Server = createServer((request, response) => {
    state.requests.push(request.headers);
    response.writeHead(state.answer.status, { 'content-type': 'application/jwk-set+json', ...state.answer.headers });
    response.end(state.answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  return state;
}

const COOLDOWN = 10_000;
const input = receiptInput();
const expected = expectedFor(input);

let keyA: SigningKey;
let keyB: SigningKey;
let ringA: SigningKeyRing;
let ringB: SigningKeyRing;
let server: JwksServer;
let clock: number;

beforeAll(async () => {
  [keyA, keyB] = (await freshKeys(2)) as [SigningKey, SigningKey];
  ringA = await createSigningKeyRing({ active: keyA });
  ringB = await createSigningKeyRing({ active: keyB, previous: keyA });
});

beforeEach(async () => {
  server = await startJwksServer();
  server.serve([keyA]);
  clock = 1_000_000;
});

afterEach(async () => {
  await server.close();
});

function remote(options: RemoteKeySetOptions = {}): ReceiptKeySet {
  return createRemoteKeySet(server.url, { now: () => clock, cooldownMs: COOLDOWN, ...options });
}

async function verify(keys: ReceiptKeySet, jws: string) {
  return verifyReceipt(jws, { keys, issuer: ISSUER, expected });
}

/** A receipt signed by a key that is published nowhere, under a random kid. */
async function receiptWithRandomKid(): Promise<string> {
  const [stranger] = await freshKeys(1);
  return signReceipt((await createSigningKeyRing({ active: stranger! })).signer, input);
}

describe('createRemoteKeySet', () => {
  it('fetches once and serves later lookups from its cache', async () => {
    const keys = remote();
    const receipt = await signReceipt(ringA.signer, input);
    expect((await verify(keys, receipt)).ok).toBe(true);
    clock += 60_000;
    expect((await verify(keys, receipt)).ok).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('asks past HTTP caches (cache-control: no-cache) for a JWK Set', async () => {
    await remote().getKey(keyA.kid);
    expect(server.requests[0]).toMatchObject({
      'cache-control': 'no-cache',
      accept: expect.stringContaining('application/jwk-set+json'),
    });
  });

  it('a key rotated in right after a fetch, inside the cooldown, still verifies', async () => {
    const keys = remote();
    expect((await verify(keys, await signReceipt(ringA.signer, input))).ok).toBe(true);

    // `sess keys rotate`: B becomes active, A stays published as the previous key.
    server.serve([keyB, keyA]);
    clock += 1_000;
    const signedWithB = await signReceipt(ringB.signer, input);
    expect(await verify(keys, signedWithB)).toMatchObject({ ok: true, kid: keyB.kid });
    expect(server.requests).toHaveLength(2);

    // Both keys are now cached: no more fetches for either.
    expect((await verify(keys, await signReceipt(ringA.signer, input))).ok).toBe(true);
    expect((await verify(keys, signedWithB)).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('random unknown kids cost at most the forced-refetch limit per cooldown window', async () => {
    const keys = remote({ forcedRefetchLimit: 2 });
    await keys.getKey(keyA.kid);
    clock += 1_000;

    const reasons: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const result = await verify(keys, await receiptWithRandomKid());
      reasons.push(result.ok ? 'OK' : result.reason);
    }
    // 1 initial fetch + 2 forced refetches; the other 18 lookups never reach the server.
    expect(server.requests).toHaveLength(3);
    expect(reasons.slice(0, 2)).toEqual(['UNKNOWN_KEY_ID', 'UNKNOWN_KEY_ID']);
    // Refused refetches are retryable, so a valid answer caught in the spray is delayed, never blocked.
    expect(new Set(reasons.slice(2))).toEqual(new Set(['KEY_SET_UNAVAILABLE']));

    // The next window allows one ordinary fetch again.
    clock += COOLDOWN;
    expect(await verify(keys, await receiptWithRandomKid())).toMatchObject({ ok: false, reason: 'UNKNOWN_KEY_ID' });
    expect(server.requests).toHaveLength(4);
  });

  it('one unknown kid forces at most one refetch per cooldown window', async () => {
    const keys = remote({ forcedRefetchLimit: 5 });
    await keys.getKey(keyA.kid);
    clock += 1_000;
    expect(await keys.getKey('sk_unknown')).toMatchObject({ found: false, reason: 'UNKNOWN_KEY_ID' });
    expect(await keys.getKey('sk_unknown')).toMatchObject({ found: false, reason: 'KEY_SET_UNAVAILABLE' });
    expect(await keys.getKey('sk_unknown')).toMatchObject({ found: false, reason: 'KEY_SET_UNAVAILABLE' });
    expect(server.requests).toHaveLength(2);
  });

  it('a rotation still verifies after a spray used up the limit, once the cooldown has passed', async () => {
    const keys = remote({ forcedRefetchLimit: 1 });
    await keys.getKey(keyA.kid);
    clock += 1_000;
    await keys.getKey('sk_spray');
    server.serve([keyB, keyA]);
    const signedWithB = await signReceipt(ringB.signer, input);
    const early = await verify(keys, signedWithB);
    expect(early).toMatchObject({ ok: false, reason: 'KEY_SET_UNAVAILABLE' });
    expect(early.ok ? undefined : toSessError(early.reason).code).toBe('SESS_UNAVAILABLE');
    clock += COOLDOWN;
    expect((await verify(keys, signedWithB)).ok).toBe(true);
  });

  it('concurrent lookups share one fetch', async () => {
    const keys = remote();
    const results = await Promise.all(Array.from({ length: 10 }, () => keys.getKey(keyA.kid)));
    expect(results.every((result) => result.found)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('a server error gives KEY_SET_UNAVAILABLE (SESS_UNAVAILABLE, retryable) and no retry before the cooldown', async () => {
    const keys = remote();
    server.answer = { status: 500, body: 'boom' };
    const receipt = await signReceipt(ringA.signer, input);
    const failed = await verify(keys, receipt);
    expect(failed).toMatchObject({ ok: false, reason: 'KEY_SET_UNAVAILABLE', message: expect.stringContaining('HTTP 500') });
    expect(failed.ok ? undefined : toSessError(failed.reason).toBody()).toMatchObject({
      code: 'SESS_UNAVAILABLE',
      retryable: true,
    });

    clock += COOLDOWN - 1;
    expect(await verify(keys, receipt)).toMatchObject({ ok: false, reason: 'KEY_SET_UNAVAILABLE' });
    expect(server.requests).toHaveLength(1);

    server.serve([keyA]);
    clock += 1;
    expect((await verify(keys, receipt)).ok).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('a failed refresh does not fall back to the stale set', async () => {
    const keys = remote({ maxAgeMs: 60_000 });
    expect(await keys.getKey(keyA.kid)).toMatchObject({ found: true });
    server.answer = { status: 503, body: '' };
    clock += 60_000;
    expect(await keys.getKey(keyA.kid)).toMatchObject({ found: false, reason: 'KEY_SET_UNAVAILABLE' });
  });

  it('a set older than maxAgeMs is fetched again, so a withdrawn key stops verifying', async () => {
    const keys = remote({ maxAgeMs: 60_000 });
    expect(await keys.getKey(keyA.kid)).toMatchObject({ found: true });
    server.serve([keyB]);
    clock += 59_999;
    expect(await keys.getKey(keyA.kid)).toMatchObject({ found: true });
    clock += 1;
    expect(await keys.getKey(keyA.kid)).toMatchObject({ found: false, reason: 'UNKNOWN_KEY_ID' });
    expect(server.requests).toHaveLength(2);
  });

  it.each<[string, { status: number; body: string; headers?: Record<string, string> }]>([
    ['a body that is not JSON', { status: 200, body: '<html>' }],
    ['JSON that is not a JWK Set', { status: 200, body: '{"keys":{}}' }],
    ['a redirect (not followed)', { status: 302, body: '', headers: { location: 'http://127.0.0.1:1/jwks.json' } }],
    ['an oversized body', { status: 200, body: JSON.stringify({ keys: [], pad: 'x'.repeat(70_000) }) }],
  ])('%s gives KEY_SET_UNAVAILABLE', async (_name, answer) => {
    server.answer = answer;
    expect(await remote().getKey(keyA.kid)).toMatchObject({ found: false, reason: 'KEY_SET_UNAVAILABLE' });
  });

  it('an unreachable server gives KEY_SET_UNAVAILABLE', async () => {
    const unreachable = createRemoteKeySet(server.url, { now: () => clock });
    await server.close();
    server = await startJwksServer(); // so afterEach has something to close
    expect(await unreachable.getKey(keyA.kid)).toMatchObject({ found: false, reason: 'KEY_SET_UNAVAILABLE' });
  });

  it('skips published keys that cannot verify ES256', async () => {
    const published = buildJwks([keyA]).keys[0]!;
    server.answer = {
      status: 200,
      body: JSON.stringify({
        keys: [
          { kty: 'oct', k: 'c2VjcmV0', kid: 'sk_oct', alg: 'HS256' },
          { ...published, kid: 'sk_rs', alg: 'RS256' },
          { ...published, kid: 'sk_enc', use: 'enc' },
          { ...published, kid: 'sk_off_curve', y: published.x },
          published,
        ],
      }),
    };
    const keys = remote();
    expect(await keys.getKey(keyA.kid)).toMatchObject({ found: true });
    for (const kid of ['sk_oct', 'sk_rs', 'sk_enc', 'sk_off_curve']) {
      clock += COOLDOWN;
      expect(await keys.getKey(kid)).toMatchObject({ found: false, reason: 'UNKNOWN_KEY_ID' });
    }
  });
});
