import { canonicalJson, sha256Hex } from '@sess/core';
import type { AcceptedAnswer } from './answer.ts';
import type { Surface } from './schema.ts';

/**
 * The surface's hash, as receipts carry it: SHA-256 of its canonical JSON, with each record's
 * `fields` written as `[key, value]` pairs in the agent's order. Canonical JSON sorts object keys,
 * and a record is shown in the order it was written, so the order is part of what was shown.
 */
export function hashSurface(surface: Surface): string {
  return sha256Hex(canonicalJson(withRecordOrder(surface)));
}

function withRecordOrder(surface: Surface): unknown {
  if (!surface.source.components.some((component) => component.type === 'record')) return surface;
  const components = surface.source.components.map((component) =>
    component.type === 'record' ? { ...component, fields: Object.entries(component.fields) } : component,
  );
  return { ...surface, source: { ...surface.source, components } };
}

/** An accepted answer's hash: SHA-256 of the canonical JSON of `{ actionId, values }` (nothing else). */
export function hashAnswer(answer: AcceptedAnswer): string {
  return sha256Hex(canonicalJson({ actionId: answer.actionId, values: answer.values }));
}
