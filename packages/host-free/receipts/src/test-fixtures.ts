/**
 * Test-only builders shared by this package's `*.test.ts` files. Not exported from `index.ts`.
 */
import { CompactSign, type CryptoKey } from 'jose';
import { generateSigningKey, type SigningKey } from './keys/generate-signing-key.ts';
import type { ReceiptInput } from './receipt/receipt-claims.ts';
import type { ExpectedReceipt } from './verify/verify-receipt.ts';

export const ISSUER = 'https://sess.example';

/** A receipt input with distinct, valid values in every field. */
export function receiptInput(overrides: Partial<ReceiptInput> = {}): ReceiptInput {
  return {
    issuer: ISSUER,
    workspaceId: 'ws_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    sessionId: 'ses_bbbbbbbbbbbbbbbbbbbbbbbbbb',
    revision: 2,
    eventId: 'evt_cccccccccccccccccccccccccc',
    surfaceSha256: 'a'.repeat(64),
    answerSha256: 'b'.repeat(64),
    issuedAt: new Date('2026-03-01T12:00:00.000Z'),
    ...overrides,
  };
}

/** What a verifier expects for `receiptInput(overrides)`. */
export function expectedFor(input: ReceiptInput): ExpectedReceipt {
  return {
    workspaceId: input.workspaceId,
    sessionId: input.sessionId,
    revision: input.revision,
    eventId: input.eventId,
    surfaceSha256: input.surfaceSha256,
    answerSha256: input.answerSha256,
  };
}

/** Signs any header and payload, bypassing every check of `signReceipt` (to build hostile receipts). */
export async function signRaw(key: CryptoKey, header: Record<string, unknown>, payload: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return new CompactSign(bytes).setProtectedHeader(header as { alg: string }).sign(key);
}

/** A compact JWS from raw parts, signature as given (for unsigned or HMAC-forged receipts). */
export function joinJws(header: Record<string, unknown>, payload: unknown, signature = ''): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode(header)}.${encode(payload)}.${signature}`;
}

/** Decodes the JSON of one JWS segment (0 = header, 1 = payload). */
export function decodeSegment(jws: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(jws.split('.')[index]!, 'base64url').toString('utf8'));
}

export async function freshKeys(count: number): Promise<SigningKey[]> {
  return Promise.all(Array.from({ length: count }, () => generateSigningKey()));
}
