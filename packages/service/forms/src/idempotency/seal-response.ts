import { createSealer, type Sealer } from '@sess/core';

/*
 * A create's stored response carries the link, a bearer secret. It is kept for the replay
 * window only, sealed under a key derived from the server secret for this purpose alone, bound
 * to its idempotency key so it cannot be moved to another row.
 */
const INFO = 'sess/forms/idempotent-response/v1';
const sealers = new Map<string, Sealer>();

function sealerFor(secret: string): Sealer {
  let sealer = sealers.get(secret);
  if (!sealer) {
    sealer = createSealer(secret, INFO);
    sealers.set(secret, sealer);
  }
  return sealer;
}

/** Seals a JSON value bound to `aad`. */
export function sealResponse(secret: string, aad: string, value: unknown): string {
  return sealerFor(secret).seal(aad, JSON.stringify(value));
}

/** Opens a sealed response. @throws SealOpenError when the secret or the binding differ (never expected). */
export function openResponse(secret: string, aad: string, sealed: string): unknown {
  return JSON.parse(sealerFor(secret).open(aad, sealed));
}
