import type { Jwks } from '../jwks/build-jwks.ts';
import { importJwks, type KeyLookup, type ReceiptKeySet } from './receipt-key-set.ts';

/**
 * A key set from keys already in hand (the server verifying its own receipts in-process).
 * Every key is imported once, here.
 * @throws TypeError when a key cannot be used: local keys are our own configuration, so a bad
 * one is a bug to surface at start-up, not a verification failure later.
 */
export async function createLocalKeySet(jwks: Jwks): Promise<ReceiptKeySet> {
  const { keys, skipped } = await importJwks(jwks);
  if (skipped.length > 0) throw new TypeError(`unusable receipt keys: ${skipped.join(', ')}`);
  return {
    getKey: async function getLocalKey(kid: string): Promise<KeyLookup> {
      const key = keys.get(kid);
      if (key) return { found: true, key };
      return { found: false, reason: 'UNKNOWN_KEY_ID', message: `no receipt key with kid ${kid}` };
    },
  };
}
