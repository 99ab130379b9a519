import { hashSecret, type Logger } from '@sess/core';
import type { DbOrTx, NotifyBus } from '@sess/db';
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
  const ttl = options.ttlMs ?? API_KEY_CACHE_TTL_MS;
  const max = options.maxEntries ?? 10_000;
  const cache = new Map<string, { principal: ApiKeyPrincipal; until: number }>();
  let subscribed: Promise<void> | undefined;
  const unsubscribe: Array<() => unknown> = [];

  const forgetKey = (apiKeyId: string) => {
    for (const [hash, entry] of cache) if (entry.principal.apiKeyId === apiKeyId) cache.delete(hash);
  };
  const subscribe = () => {
    if (!options.bus) return Promise.resolve();
    const bus = options.bus;
    subscribed ??= (async () => {
      unsubscribe.push(await bus.subscribe(API_KEYS_CHANNEL, forgetKey));
      unsubscribe.push(bus.onReconnect(() => cache.clear()));
    })().catch((error: unknown) => {
      subscribed = undefined;
      throw error;
    });
    return subscribed;
  };

  return {
    async authenticate(key) {
      if (!isApiKeyShape(key)) return null;
      // Listening before the first read means a revocation committed after it is never missed.
      await subscribe();
      const hash = hashSecret(key);
      const now = options.now().getTime();
      const hit = cache.get(hash);
      if (hit && hit.until > now) return hit.principal;
      const principal = await authenticateApiKey(options, key);
      if (principal) {
        cache.delete(hash);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(hash, { principal, until: now + ttl });
      } else {
        cache.delete(hash);
      }
      return principal;
    },
    async close() {
      cache.clear();
      subscribed = undefined;
      await Promise.allSettled(unsubscribe.splice(0).map((u) => u()));
    },
  };
}
