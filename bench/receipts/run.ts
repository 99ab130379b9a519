/**
 * Receipt figures: median and p99 of one sign, one verify (local key set, keys imported once)
 * and one seal/open of a private key. Run: `node --import tsx bench/receipts/run.ts [iterations]`.
 */
import { performance } from 'node:perf_hooks';
import {
  createSigningKeyRing,
  generateSigningKey,
  openPrivateJwk,
  type ReceiptInput,
  sealPrivateJwk,
  signReceipt,
  verifyReceipt,
} from '@sess/receipts';

const iterations = Number(process.argv[2] ?? 5_000);
const warmup = 200;

function summarize(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  return `median ${us(at(0.5))}, p99 ${us(at(0.99))}`;
}

async function measure(run: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = performance.now();
    await run(i);
    samples.push(performance.now() - start);
  }
  return samples;
}

const [active, previous] = await Promise.all([generateSigningKey(), generateSigningKey()]);
const ring = await createSigningKeyRing({ active, previous });
const input = (i: number): ReceiptInput => ({
  issuer: 'https://sess.example',
  workspaceId: 'ws_aaaaaaaaaaaaaaaaaaaaaaaaaa',
  sessionId: 'ses_bbbbbbbbbbbbbbbbbbbbbbbbbb',
  revision: 1 + (i % 5),
  eventId: `evt_${String(i).padStart(26, '0')}`,
  surfaceSha256: 'a'.repeat(64),
  answerSha256: 'b'.repeat(64),
});

const receipts = await Promise.all(Array.from({ length: iterations + warmup }, (_, i) => signReceipt(ring.signer, input(i))));
const sign = await measure((i) => signReceipt(ring.signer, input(i)));
const verify = await measure(async (i) => {
  const { issuer, workspaceId, sessionId, revision, eventId, surfaceSha256, answerSha256 } = input(i);
  const result = await verifyReceipt(receipts[i]!, {
    keys: ring.keySet,
    issuer,
    expected: { workspaceId, sessionId, revision, eventId, surfaceSha256, answerSha256 },
  });
  if (!result.ok) throw new Error(`receipt ${i} did not verify: ${result.reason}`);
});
const secret = 'bench-secret-bench-secret-bench-secret-0123';
const sealed = sealPrivateJwk(secret, active);
const seal = await measure(() => sealPrivateJwk(secret, active));
const open = await measure(() => openPrivateJwk(secret, { kid: active.kid, sealed }));

console.log(`receipts bench: node ${process.version}, ${iterations} iterations each (after ${warmup} warm-up)`);
console.log(`  sign (ES256, key imported once)      ${summarize(sign)}`);
console.log(`  verify (local key set, all claims)   ${summarize(verify)}`);
console.log(`  seal private key (HKDF + AES-GCM)    ${summarize(seal)}`);
console.log(`  open private key                     ${summarize(open)}`);
console.log(`  receipt size                         ${receipts[0]!.length} bytes`);
