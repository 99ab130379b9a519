import { createHmac } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalKeySet } from '../key-set/create-local-key-set.ts';
import { createSigningKeyRing, type SigningKeyRing } from '../keys/create-signing-key-ring.ts';
import { RECEIPT_TYP } from '../receipt/receipt-claims.ts';
import { buildReceiptClaims, signReceipt } from '../receipt/sign-receipt.ts';
import { decodeSegment, expectedFor, freshKeys, ISSUER, joinJws, receiptInput, signRaw } from '../test-fixtures.ts';
import type { ReceiptFailureReason } from './failure-reasons.ts';
import { type ExpectedReceipt, verifyReceipt } from './verify-receipt.ts';

let ring: SigningKeyRing;
let receipt: string;
const input = receiptInput();
const expected = expectedFor(input);

beforeAll(async () => {
  const [key] = await freshKeys(1);
  ring = await createSigningKeyRing({ active: key! });
  receipt = await signReceipt(ring.signer, input);
});

async function reasonOf(
  jws: string,
  overrides: Partial<ExpectedReceipt> = {},
  issuer = ISSUER,
): Promise<ReceiptFailureReason | 'OK'> {
  const result = await verifyReceipt(jws, { keys: ring.keySet, issuer, expected: { ...expected, ...overrides } });
  return result.ok ? 'OK' : result.reason;
}

/** Signs with the ring's own key, so only the claim or header under test differs. */
function signWithRing(header: Record<string, unknown>, payload: unknown): Promise<string> {
  return signRaw(ring.signer.privateKey, header, payload);
}

const goodHeader = () => ({ alg: 'ES256', kid: ring.signer.kid, typ: RECEIPT_TYP });

describe('round trip', () => {
  it('a receipt verifies against exactly what it was signed for', async () => {
    const result = await verifyReceipt(receipt, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(result).toEqual({ ok: true, kid: ring.signer.kid, claims: buildReceiptClaims(input) });
  });

  it('carries the protected header { alg, kid, typ } and nothing else', () => {
    expect(decodeSegment(receipt, 0)).toEqual({ alg: 'ES256', kid: ring.signer.kid, typ: 'sess-receipt+jwt' });
  });

  it('carries the documented claim names', () => {
    expect(decodeSegment(receipt, 1)).toEqual({
      iss: ISSUER,
      iat: Date.parse('2026-03-01T12:00:00.000Z') / 1000,
      workspace_id: input.workspaceId,
      session_id: input.sessionId,
      revision: 2,
      event_id: input.eventId,
      surface_sha256: input.surfaceSha256,
      answer_sha256: input.answerSha256,
      actorAssurance: 'link_holder',
      via: 'link',
      assurance: 'link',
    });
  });

  it('an account answer carries assurance and its respondent, and meets a minimum up to its level', async () => {
    const account = await signReceipt(ring.signer, { ...input, assurance: 'account', respondent: 'r'.repeat(43) });
    expect(decodeSegment(account, 1)).toMatchObject({ assurance: 'account', respondent: 'r'.repeat(43) });
    const result = await verifyReceipt(account, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(result.ok && result.claims).toMatchObject({ assurance: 'account', respondent: 'r'.repeat(43) });
    expect(await reasonOf(account, { assurance: 'account', respondent: 'r'.repeat(43), minAssurance: 'account' })).toBe('OK');
    expect(await reasonOf(account, { minAssurance: 'link' })).toBe('OK');
    expect(await reasonOf(account, { minAssurance: 'passkey' })).toBe('ASSURANCE_TOO_LOW');
    expect(await reasonOf(account, { assurance: 'link' })).toBe('ASSURANCE_MISMATCH');
    expect(await reasonOf(account, { respondent: 's'.repeat(43) })).toBe('ASSURANCE_MISMATCH');
    expect(await reasonOf(account, { respondent: null })).toBe('ASSURANCE_MISMATCH');
  });

  it('a passkey answer carries its credential and assertion hash, and meets every minimum', async () => {
    const proof = { passkeyCredentialId: 'Y3JlZA', assertionSha256: 'c'.repeat(64) };
    const passkey = await signReceipt(ring.signer, { ...input, assurance: 'passkey', respondent: 'r'.repeat(43), ...proof });
    const result = await verifyReceipt(passkey, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(result.ok && result.claims).toMatchObject({
      assurance: 'passkey',
      passkey_credential_id: 'Y3JlZA',
      assertion_sha256: 'c'.repeat(64),
    });
    expect(await reasonOf(passkey, { minAssurance: 'passkey' })).toBe('OK');
    expect(await reasonOf(passkey, { minAssurance: 'account' })).toBe('OK');
    // A passkey receipt without its proof, or an account receipt with one, is malformed.
    const { passkey_credential_id: _id, ...bare } = decodeSegment(passkey, 1) as Record<string, unknown>;
    expect(await reasonOf(await signWithRing(goodHeader(), bare))).toBe('MALFORMED');
    const account = {
      ...buildReceiptClaims({ ...input, assurance: 'account', respondent: 'r'.repeat(43) }),
      assertion_sha256: 'c'.repeat(64),
    };
    expect(await reasonOf(await signWithRing(goodHeader(), account))).toBe('MALFORMED');
  });

  it('a link answer is below account; a receipt signed before assurance existed is link', async () => {
    expect(await reasonOf(receipt, { minAssurance: 'account' })).toBe('ASSURANCE_TOO_LOW');
    const { assurance: _assurance, ...older } = buildReceiptClaims(input);
    const jws = await signWithRing(goodHeader(), older);
    const result = await verifyReceipt(jws, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(result).toEqual({ ok: true, kid: ring.signer.kid, claims: { ...older, assurance: 'link' } });
    expect(await reasonOf(jws, { assurance: 'link', respondent: null, minAssurance: 'link' })).toBe('OK');
    expect(await reasonOf(jws, { minAssurance: 'account' })).toBe('ASSURANCE_TOO_LOW');
  });

  it('a chat answer carries via chat and its principal, and verifies with them', async () => {
    const chat = await signReceipt(ring.signer, { ...input, via: 'chat', viaPrincipalId: 'usr_ffffffffffffffffffffffffff' });
    expect(decodeSegment(chat, 1)).toMatchObject({ via: 'chat', via_principal_id: 'usr_ffffffffffffffffffffffffff' });
    const result = await verifyReceipt(chat, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(result.ok && result.claims).toMatchObject({ via: 'chat', via_principal_id: 'usr_ffffffffffffffffffffffffff' });
    expect(await reasonOf(chat, { via: 'chat', viaPrincipalId: 'usr_ffffffffffffffffffffffffff' })).toBe('OK');
  });

  it('a receipt signed before via existed verifies and is reported as a link answer', async () => {
    const { via: _via, assurance: _assurance, ...older } = buildReceiptClaims(input);
    const jws = await signWithRing(goodHeader(), older);
    const result = await verifyReceipt(jws, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(result).toEqual({ ok: true, kid: ring.signer.kid, claims: { ...older, via: 'link', assurance: 'link' } });
    expect(await reasonOf(jws, { via: 'link', viaPrincipalId: null })).toBe('OK');
    expect(await reasonOf(jws, { via: 'chat' })).toBe('VIA_MISMATCH');
  });

  it('an Ask answer carries respondent_id and verifies with it', async () => {
    const ask = await signReceipt(ring.signer, { ...input, respondentId: 'rsp_dddddddddddddddddddddddddd' });
    expect(await reasonOf(ask, { respondentId: 'rsp_dddddddddddddddddddddddddd' })).toBe('OK');
    expect(await reasonOf(ask, { respondentId: 'rsp_eeeeeeeeeeeeeeeeeeeeeeeeee' })).toBe('RESPONDENT_MISMATCH');
    expect(await reasonOf(ask, { respondentId: null })).toBe('RESPONDENT_MISMATCH');
  });

  it('a receipt without respondent_id passes when none is expected (null)', async () => {
    expect(await reasonOf(receipt, { respondentId: null })).toBe('OK');
  });

  it('answer_sha256 is not compared when the caller holds no answer', async () => {
    expect(await reasonOf(receipt, { answerSha256: undefined })).toBe('OK');
  });

  it('claims it does not know are tolerated but not returned', async () => {
    const jws = await signWithRing(goodHeader(), { ...buildReceiptClaims(input), future_claim: 1 });
    const result = await verifyReceipt(jws, { keys: ring.keySet, issuer: ISSUER, expected });
    expect(result.ok && 'future_claim' in result.claims).toBe(false);
    expect(result.ok).toBe(true);
  });
});

describe('every claim must match what the caller expects', () => {
  it.each<[string, Partial<ExpectedReceipt>, ReceiptFailureReason]>([
    ['workspace', { workspaceId: 'ws_zzzzzzzzzzzzzzzzzzzzzzzzzz' }, 'WORKSPACE_MISMATCH'],
    ['session', { sessionId: 'ses_zzzzzzzzzzzzzzzzzzzzzzzzzz' }, 'SESSION_MISMATCH'],
    ['revision', { revision: 3 }, 'REVISION_MISMATCH'],
    ['event', { eventId: 'evt_zzzzzzzzzzzzzzzzzzzzzzzzzz' }, 'EVENT_MISMATCH'],
    ['surface hash', { surfaceSha256: 'c'.repeat(64) }, 'SURFACE_MISMATCH'],
    ['surface hash in upper case (compared exactly)', { surfaceSha256: 'A'.repeat(64) }, 'SURFACE_MISMATCH'],
    ['answer hash', { answerSha256: 'c'.repeat(64) }, 'ANSWER_MISMATCH'],
    ['way (chat for a link answer)', { via: 'chat' }, 'VIA_MISMATCH'],
    ['principal (one for a link answer)', { viaPrincipalId: 'usr_ffffffffffffffffffffffffff' }, 'VIA_MISMATCH'],
  ])('another %s', async (_name, overrides, reason) => {
    expect(await reasonOf(receipt, overrides)).toBe(reason);
  });

  it('a chat answer: another way or another principal', async () => {
    const chat = await signReceipt(ring.signer, { ...input, via: 'chat', viaPrincipalId: 'usr_ffffffffffffffffffffffffff' });
    expect(await reasonOf(chat, { via: 'link' })).toBe('VIA_MISMATCH');
    expect(await reasonOf(chat, { viaPrincipalId: 'usr_gggggggggggggggggggggggggg' })).toBe('VIA_MISMATCH');
    expect(await reasonOf(chat, { viaPrincipalId: null })).toBe('VIA_MISMATCH');
  });

  it('another issuer', async () => {
    expect(await reasonOf(receipt, {}, 'https://other.example')).toBe('ISSUER_MISMATCH');
    expect(await reasonOf(receipt, {}, `${ISSUER}/`)).toBe('ISSUER_MISMATCH');
  });

  it('actorAssurance other than link_holder', async () => {
    const jws = await signWithRing(goodHeader(), { ...buildReceiptClaims(input), actorAssurance: 'verified_email' });
    expect(await reasonOf(jws)).toBe('ACTOR_ASSURANCE_MISMATCH');
  });

  it('the issuer is checked before the other claims', async () => {
    expect(await reasonOf(receipt, { sessionId: 'ses_other' }, 'https://other.example')).toBe('ISSUER_MISMATCH');
  });
});

describe('the signature must be ours', () => {
  it('a tampered payload (original signature) fails', async () => {
    const [header, , signature] = receipt.split('.');
    const forged = Buffer.from(JSON.stringify({ ...decodeSegment(receipt, 1), session_id: 'ses_other' })).toString('base64url');
    expect(await reasonOf(`${header}.${forged}.${signature}`, { sessionId: 'ses_other' })).toBe('BAD_SIGNATURE');
  });

  it('a tampered signature fails', async () => {
    const [header, payload, signature] = receipt.split('.') as [string, string, string];
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
    expect(await reasonOf(`${header}.${payload}.${flipped}`)).toBe('BAD_SIGNATURE');
    expect(await reasonOf(`${header}.${payload}.${signature.slice(0, 40)}`)).toBe('BAD_SIGNATURE');
  });

  it('a receipt signed by another key under our kid fails', async () => {
    const [other] = await freshKeys(1);
    const otherRing = await createSigningKeyRing({ active: { ...other!, kid: ring.signer.kid } });
    expect(await reasonOf(await signReceipt(otherRing.signer, input))).toBe('BAD_SIGNATURE');
  });

  it('an unknown kid fails', async () => {
    const [other] = await freshKeys(1);
    const otherRing = await createSigningKeyRing({ active: other! });
    expect(await reasonOf(await signReceipt(otherRing.signer, input))).toBe('UNKNOWN_KEY_ID');
  });
});

describe('only ES256 with a plain header is accepted', () => {
  it('alg none is refused', async () => {
    const unsigned = joinJws({ alg: 'none', kid: ring.signer.kid, typ: RECEIPT_TYP }, buildReceiptClaims(input));
    expect(await reasonOf(unsigned)).toBe('ALG_NOT_ALLOWED');
  });

  it('HS256 keyed with our public key (algorithm confusion) is refused', async () => {
    const header = { alg: 'HS256', kid: ring.signer.kid, typ: RECEIPT_TYP };
    const unsigned = joinJws(header, buildReceiptClaims(input)).slice(0, -1);
    const publicJwkJson = JSON.stringify(ring.jwks.keys[0]);
    for (const secret of [publicJwkJson, await exportSPKI((await generateKeyPair('ES256')).publicKey)]) {
      const mac = createHmac('sha256', secret).update(unsigned).digest('base64url');
      expect(await reasonOf(`${unsigned}.${mac}`)).toBe('ALG_NOT_ALLOWED');
    }
  });

  it('a local key set refuses a symmetric key, so no kid can resolve to one', async () => {
    const oct = { kty: 'oct', k: Buffer.from('secret').toString('base64url'), kid: 'sk_oct', alg: 'HS256' };
    await expect(createLocalKeySet({ keys: [oct as never] })).rejects.toThrow(/unusable receipt keys: sk_oct/);
  });

  it.each(['RS256', 'ES384', 'EdDSA', 'es256'])('alg %s is refused', async (alg) => {
    expect(await reasonOf(joinJws({ alg, kid: ring.signer.kid, typ: RECEIPT_TYP }, {}, 'AAAA'))).toBe('ALG_NOT_ALLOWED');
  });

  it('an embedded jwk header (attacker key) is refused', async () => {
    const attacker = await generateKeyPair('ES256', { extractable: true });
    const header = { ...goodHeader(), jwk: await exportJWK(attacker.publicKey) };
    const jws = await signRaw(attacker.privateKey, header, buildReceiptClaims(input));
    expect(await reasonOf(jws)).toBe('HEADER_NOT_ALLOWED');
  });

  it.each<[string, Record<string, unknown>]>([
    ['jku', { jku: 'https://attacker.example/jwks.json' }],
    ['x5u', { x5u: 'https://attacker.example/cert.pem' }],
    ['x5c', { x5c: ['MIIB'] }],
    ['crit + b64', { crit: ['b64'], b64: false }],
  ])('a %s header is refused', async (_name, extra) => {
    const jws = joinJws({ ...goodHeader(), ...extra }, buildReceiptClaims(input), 'AAAA');
    expect(await reasonOf(jws)).toBe('HEADER_NOT_ALLOWED');
  });

  it('another typ is refused', async () => {
    expect(await reasonOf(await signWithRing({ ...goodHeader(), typ: 'JWT' }, buildReceiptClaims(input)))).toBe('TYPE_MISMATCH');
    expect(await reasonOf(await signWithRing({ alg: 'ES256', kid: ring.signer.kid }, buildReceiptClaims(input)))).toBe(
      'TYPE_MISMATCH',
    );
  });

  it('a header without kid is malformed', async () => {
    expect(await reasonOf(await signWithRing({ alg: 'ES256', typ: RECEIPT_TYP }, buildReceiptClaims(input)))).toBe('MALFORMED');
  });
});

describe('malformed receipts', () => {
  it.each([
    ['empty', ''],
    ['two segments', 'a.b'],
    ['four segments', 'a.b.c.d'],
    ['not base64url', 'a+b.c.d'],
    ['header not JSON', `${Buffer.from('nope').toString('base64url')}.e30.AAAA`],
    ['header an array', `${Buffer.from('[]').toString('base64url')}.e30.AAAA`],
    ['JWS JSON serialization', JSON.stringify({ payload: 'e30', signatures: [] })],
    ['far too long', `${'a'.repeat(9000)}.e30.AAAA`],
  ])('%s', async (_name, jws) => {
    expect(await reasonOf(jws)).toBe('MALFORMED');
  });

  it('a non-string is malformed, not a throw', async () => {
    expect(await reasonOf(42 as unknown as string)).toBe('MALFORMED');
  });

  it.each<[string, unknown]>([
    ['payload not JSON', 'not json'],
    ['payload an array', [1]],
    ['revision 0', { ...buildReceiptClaims(input), revision: 0 }],
    ['revision as a string', { ...buildReceiptClaims(input), revision: '2' }],
    ['hash in upper case', { ...buildReceiptClaims(input), surface_sha256: 'A'.repeat(64) }],
    ['answer hash missing', { ...buildReceiptClaims(input), answer_sha256: undefined }],
    ['iat not an integer', { ...buildReceiptClaims(input), iat: 1.5 }],
    ['empty session id', { ...buildReceiptClaims(input), session_id: '' }],
    ['actorAssurance missing', { ...buildReceiptClaims(input), actorAssurance: undefined }],
    ['respondent_id not a string', { ...buildReceiptClaims(input), respondent_id: 7 }],
    ['a via of neither kind', { ...buildReceiptClaims(input), via: 'sms' }],
    ['via in upper case', { ...buildReceiptClaims(input), via: 'CHAT', via_principal_id: 'usr_1' }],
    ['via null', { ...buildReceiptClaims(input), via: null }],
    ['via chat without its principal', { ...buildReceiptClaims(input), via: 'chat' }],
    ['via chat with an over-long principal', { ...buildReceiptClaims(input), via: 'chat', via_principal_id: 'p'.repeat(201) }],
    ['via chat with a principal not a string', { ...buildReceiptClaims(input), via: 'chat', via_principal_id: 7 }],
    ['via link with a principal', { ...buildReceiptClaims(input), via: 'link', via_principal_id: 'usr_1' }],
    ['no via (older) with a principal', { ...buildReceiptClaims(input), via: undefined, via_principal_id: 'usr_1' }],
    ['an assurance of no level', { ...buildReceiptClaims(input), assurance: 'sms' }],
    ['assurance null', { ...buildReceiptClaims(input), assurance: null }],
    ['assurance account without its respondent', { ...buildReceiptClaims(input), assurance: 'account' }],
    ['assurance link with a respondent', { ...buildReceiptClaims(input), assurance: 'link', respondent: 'r1' }],
    ['no assurance (older) with a respondent', { ...buildReceiptClaims(input), assurance: undefined, respondent: 'r1' }],
    ['a respondent not a string', { ...buildReceiptClaims(input), assurance: 'account', respondent: 7 }],
  ])('a validly signed receipt with %s is malformed', async (_name, payload) => {
    expect(await reasonOf(await signWithRing(goodHeader(), payload))).toBe('MALFORMED');
  });
});

describe('key rotation', () => {
  it('a receipt signed by the previous key still verifies after a rotation', async () => {
    const [a, b, c] = await freshKeys(3);
    const beforeRotation = await createSigningKeyRing({ active: a! });
    const oldReceipt = await signReceipt(beforeRotation.signer, input);

    const afterRotation = await createSigningKeyRing({ active: b!, previous: a! });
    const newReceipt = await signReceipt(afterRotation.signer, input);
    const verify = (jws: string, r: SigningKeyRing) => verifyReceipt(jws, { keys: r.keySet, issuer: ISSUER, expected });
    expect((await verify(oldReceipt, afterRotation)).ok).toBe(true);
    expect((await verify(newReceipt, afterRotation)).ok).toBe(true);
    expect(afterRotation.jwks.keys.map((k) => k.kid)).toEqual([b!.kid, a!.kid]);

    // Two rotations later the first key is no longer published: documented, not a bug.
    const afterSecondRotation = await createSigningKeyRing({ active: c!, previous: b! });
    expect(await verify(oldReceipt, afterSecondRotation)).toMatchObject({ ok: false, reason: 'UNKNOWN_KEY_ID' });
    expect((await verify(newReceipt, afterSecondRotation)).ok).toBe(true);
  });
});
