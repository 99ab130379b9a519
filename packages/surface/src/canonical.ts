import { canonicalJson, sha256Hex } from '@sess/core';
import type { AcceptedAnswer } from './answer.ts';
import type { Surface } from './schema.ts';

/** The surface's hash, as receipts carry it: SHA-256 of its canonical JSON. */
export function hashSurface(surface: Surface): string {
  return sha256Hex(canonicalJson(surface));
}

/** An accepted answer's hash: SHA-256 of the canonical JSON of `{ actionId, values }` (nothing else). */
export function hashAnswer(answer: AcceptedAnswer): string {
  return sha256Hex(canonicalJson({ actionId: answer.actionId, values: answer.values }));
}
