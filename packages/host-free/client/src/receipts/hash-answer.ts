import type { AnswerValue } from '@sess/contract';
import { canonicalJson } from '@sess/core';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * An answer's hash as the receipt signs it: SHA-256 of the canonical JSON of `{ actionId,
 * values }`, the definition of @sess/surface's `hashAnswer` (a unit test holds them equal), with
 * the digest from Web Crypto instead of node:crypto, so the client runs wherever `fetch` and
 * `crypto.subtle` do (Node 20+, Deno, Bun, workers, browsers).
 */
export async function hashAnswer(answer: { actionId: string; values: Record<string, AnswerValue> }): Promise<string> {
  const text = canonicalJson({ actionId: answer.actionId, values: answer.values });
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += HEX[byte];
  return hex;
}
