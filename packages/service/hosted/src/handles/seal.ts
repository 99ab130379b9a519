import { createSealer as createCoreSealer } from '@sess/core';

/*
 * The link and the answer data in a handle record are sealed at rest (see @sess/core's seal:
 * AES-256-GCM, a key derived from the server secret for this purpose only), with the handle as
 * additional data, so a sealed value copied onto another row does not open.
 */
const INFO = 'sess mcp handle seal v1';

/** A sealer bound to one secret; derive it once at start-up. */
export interface Sealer {
  seal(handle: string, value: unknown): string;
  /** Throws when the value was not sealed with this secret for this handle. */
  open(handle: string, sealed: string): unknown;
}

export function createSealer(secret: string): Sealer {
  if (secret.length < 32) throw new Error('The server secret must be at least 32 characters to seal handle records.');
  const sealer = createCoreSealer(secret, INFO);
  return {
    seal: (handle, value) => sealer.seal(handle, JSON.stringify(value)),
    open: (handle, sealed) => JSON.parse(sealer.open(handle, sealed)),
  };
}
