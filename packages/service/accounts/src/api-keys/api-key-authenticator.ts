import { hashSecret, type Logger } from '@sess/core';
import { createBusCache, type DbOrTx, type NotifyBus } from '@sess/db';
import { isApiKeyShape } from './api-key-format.ts';
import { type ApiKeyPrincipal, authenticateApiKey } from './authenticate-api-key.ts';

/** Channel on which a revocation is announced (payload: the key id), so every replica forgets the key. */
export const API_KEYS_CHANNEL = 'sess_api_keys';

/** How long a verified key is trusted without a database read. */
export const API_KEY_CACHE_TTL_MS = 5_000;

export interface ApiKeyAuthenticatorOptions {
  db: DbOrTx;
  now: () => Date;
  /** Revocations arrive here; without a bus, entries only expire. */
  bus?: NotifyBus;
  logger?: Logger;
  ttlMs?: number;
  /** Bound on cached keys (oldest dropped first). */
  maxEntries?: number;
}

/** A process-wide API key check with a short positive cache. */
export interface ApiKeyAuthenticator {
  authenticate(key: string): Promise<ApiKeyPrincipal | null>;
  close(): Promise<void>;
}

/**
 * Verifies `/v1` bearer keys with a short in-process cache of live keys (by SHA-256), so a busy
 * client costs one database read per key per `ttlMs` instead of one per request. A revocation
 * (`revokeApiKey` notifies `API_KEYS_CHANNEL`) drops the key on every replica as soon as the
 * notification arrives; if it is lost (the listening connection dropped, after which the whole
 * cache is cleared), the entry still expires within `ttlMs`. Unknown keys are never cached, so
 * guessing cannot fill the cache; malformed ones never reach the database.
 */
export function createApiKeyAuthenticator(options: ApiKeyAuthenticatorOptions): ApiKeyAuthenticator {
  const cache = createBusCache<ApiKeyPrincipal>({
    bus: options.bus,
    channel: API_KEYS_CHANNEL,
    now: () => options.now().getTime(),
    ttlMs: options.ttlMs ?? API_KEY_CACHE_TTL_MS,
    maxEntries: options.maxEntries ?? 10_000,
    // The cache is keyed by the key's hash; a revocation names the key's id.
    dropsOn: (apiKeyId, _hash, principal) => principal.apiKeyId === apiKeyId,
  });

  return {
    async authenticate(key) {
      if (!isApiKeyShape(key)) return null;
      // Listening before the first read means a revocation committed after it is never missed.
      await cache.listen();
      const hash = hashSecret(key);
      const hit = cache.get(hash);
      if (hit) return hit;
      const principal = await authenticateApiKey(options, key);
      if (principal) cache.set(hash, principal);
      else cache.delete(hash);
      return principal;
    },
    close: () => cache.close(),
  };
}
