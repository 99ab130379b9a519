import { beforeAll, describe, expect, it } from 'vitest';
import { createReceiptSigner, type ReceiptSigner } from '../keys/create-receipt-signer.ts';
import { freshKeys, receiptInput } from '../test-fixtures.ts';
import type { ReceiptInput } from './receipt-claims.ts';
import { buildReceiptClaims, signReceipt } from './sign-receipt.ts';

let signer: ReceiptSigner;
beforeAll(async () => {
  const [key] = await freshKeys(1);
  signer = await createReceiptSigner(key!);
});

describe('buildReceiptClaims', () => {
  it('takes iat in whole seconds from issuedAt', () => {
    expect(buildReceiptClaims(receiptInput({ issuedAt: new Date(1_700_000_000_999) })).iat).toBe(1_700_000_000);
  });

  it('leaves respondent_id out unless given', () => {
    expect('respondent_id' in buildReceiptClaims(receiptInput())).toBe(false);
    expect(buildReceiptClaims(receiptInput({ respondentId: 'rsp_1' })).respondent_id).toBe('rsp_1');
  });

  it('signs via link by default, and a chat answer with its principal', () => {
    const link = buildReceiptClaims(receiptInput());
    expect(link.via).toBe('link');
    expect('via_principal_id' in link).toBe(false);
    expect(buildReceiptClaims(receiptInput({ via: 'link' }))).toEqual(link);
    const chat = buildReceiptClaims(receiptInput({ via: 'chat', viaPrincipalId: 'usr_1' }));
    expect(chat).toMatchObject({ via: 'chat', via_principal_id: 'usr_1' });
  });

  it('signs assurance link by default with no respondent, and an account answer with its respondent', () => {
    const link = buildReceiptClaims(receiptInput());
    expect(link.assurance).toBe('link');
    expect('respondent' in link).toBe(false);
    const account = buildReceiptClaims(receiptInput({ assurance: 'account', respondent: 'r1' }));
    expect(account).toMatchObject({ assurance: 'account', respondent: 'r1' });
  });

  it.each<[string, Partial<ReceiptInput>]>([
    ['an assurance of no level', { assurance: 'sms' as never }],
    ['an account answer without its respondent', { assurance: 'account' }],
    ['a link answer with a respondent', { respondent: 'r1' }],
    ['an over-long respondent', { assurance: 'passkey', respondent: 'r'.repeat(201) }],
    ['a passkey answer without its credential', { assurance: 'passkey', respondent: 'r1', assertionSha256: 'a'.repeat(64) }],
    ['a passkey answer without its assertion hash', { assurance: 'passkey', respondent: 'r1', passkeyCredentialId: 'c1' }],
    [
      'a passkey answer with an assertion hash that is not hex SHA-256',
      { assurance: 'passkey', respondent: 'r1', passkeyCredentialId: 'c1', assertionSha256: 'A'.repeat(64) },
    ],
    ['an account answer with a passkey credential', { assurance: 'account', respondent: 'r1', passkeyCredentialId: 'c1' }],
    ['a link answer with an assertion hash', { assertionSha256: 'a'.repeat(64) }],
    ['a via of neither kind', { via: 'sms' as never }],
    ['a chat answer without its principal', { via: 'chat' }],
    ['a chat answer with an empty principal', { via: 'chat', viaPrincipalId: '' }],
    ['a chat answer with an over-long principal', { via: 'chat', viaPrincipalId: 'p'.repeat(201) }],
    ['a link answer with a principal', { via: 'link', viaPrincipalId: 'usr_1' }],
    ['a principal without via (link by default)', { viaPrincipalId: 'usr_1' }],
    ['a relative issuer', { issuer: '/sess' }],
    ['an empty workspace id', { workspaceId: '' }],
    ['an over-long session id', { sessionId: 's'.repeat(201) }],
    ['an empty event id', { eventId: '' }],
    ['an empty respondent id', { respondentId: '' }],
    ['revision 0', { revision: 0 }],
    ['a fractional revision', { revision: 1.5 }],
    ['an upper-case surface hash', { surfaceSha256: 'A'.repeat(64) }],
    ['a short answer hash', { answerSha256: 'b'.repeat(63) }],
  ])('refuses %s (the verifier would call it malformed)', async (_name, overrides) => {
    expect(() => buildReceiptClaims(receiptInput(overrides))).toThrow(TypeError);
    await expect(signReceipt(signer, receiptInput(overrides))).rejects.toThrow(TypeError);
  });
});
