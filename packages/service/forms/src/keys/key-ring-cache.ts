import type { Logger } from '@sess/core';
import type { Db } from '@sess/db';
import type { SigningKeyRing } from '@sess/receipts';
import { ensureSigningKey, loadSigningKeyRing } from './signing-keys.ts';

/**
 * The process's signing keys, loaded and imported once, then reused for every receipt and the
 * JWKS. A rotation (seen on the notify bus, or after the bus reconnects) drops the cached ring
 * so the next use loads the new one. A load that started before an invalidation is not kept.
 */
export class KeyRingCache {
  #ring: Promise<SigningKeyRing> | undefined;
  #generation = 0;

  constructor(
    private readonly db: Db,
    private readonly secret: string,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  /** The current ring; creates the first signing key on a fresh database. */
  ring(): Promise<SigningKeyRing> {
    if (this.#ring) return this.#ring;
    const generation = this.#generation;
    const loading = this.#load().catch((error: unknown) => {
      // A failed load is not cached: the next call tries again.
      if (this.#generation === generation && this.#ring === loading) this.#ring = undefined;
      throw error;
    });
    this.#ring = loading;
    return loading;
  }

  /** Forget the ring (a rotation happened somewhere). */
  invalidate(): void {
    this.#generation++;
    this.#ring = undefined;
  }

  async #load(): Promise<SigningKeyRing> {
    let ring = await loadSigningKeyRing(this.db, this.secret);
    if (!ring) {
      const { kid, created } = await ensureSigningKey(this.db, { secret: this.secret, now: this.now() });
      if (created) this.logger.info({ event: 'forms.signing_key.created', kid }, 'first receipt signing key created');
      ring = await loadSigningKeyRing(this.db, this.secret);
      if (!ring) throw new Error('no active signing key after creating one');
    }
    this.logger.debug({ event: 'forms.signing_key.loaded', kid: ring.signer.kid }, 'receipt signing keys loaded');
    return ring;
  }
}
