import { NEVER_EXPIRES, readWebBytes } from '@sess/core';
import type { CryptoKey } from 'jose';
import { importJwks, type KeyLookup, type ReceiptKeySet } from './receipt-key-set.ts';

/** Options of `createRemoteKeySet`; every default is documented on its field. */
export interface RemoteKeySetOptions {
  /** Defaults to the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Minimum time between two ordinary fetches, and the window of the forced-refetch limits. Default 10 s. */
  cooldownMs?: number;
  /** A set older than this is fetched again before use, so a key withdrawn from the JWKS stops verifying. Default 5 min. */
  maxAgeMs?: number;
  /** Forced refetches (unknown kid inside the cooldown) allowed per cooldown window, across all kids. Default 2. */
  forcedRefetchLimit?: number;
  /** Deadline of one fetch, body included. Default 5 s. */
  timeoutMs?: number;
  /** Largest JWKS body accepted. Default 64 KiB (two keys take about 400 bytes). */
  maxBytes?: number;
  /** Clock in milliseconds; injected by tests. Default `Date.now`. */
  now?: () => number;
}

type RefreshOutcome = { ok: true } | { ok: false; message: string };

/**
 * A key set fetched from a JWKS URL and cached.
 *
 * - At most one ordinary fetch per `cooldownMs`; a set is reused until it is `maxAgeMs` old.
 * - An unknown kid inside the cooldown forces one immediate refetch, so an answer signed with a
 *   key rotated in just after our last fetch still verifies (the seed SDK's rotation window).
 *   Forced refetches are limited to one per kid and `forcedRefetchLimit` in all per cooldown
 *   window, so a stream of random kids costs the JWKS server at most a few requests.
 * - `UNKNOWN_KEY_ID` is reported only after a fetch made for this lookup lacks the kid. When the
 *   limits forbid that fetch, or a fetch fails, the answer is `KEY_SET_UNAVAILABLE`: retryable
 *   (`SESS_UNAVAILABLE`), so a rate limit can delay a valid answer but never block it.
 * - A failed fetch is not retried before the cooldown ends, and a stale set is not used after a
 *   failed refresh: the key set is the trust root, so it fails closed (and retryable).
 *
 * Concurrent lookups share one in-flight fetch.
 */
export function createRemoteKeySet(url: string | URL, options: RemoteKeySetOptions = {}): ReceiptKeySet {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const cooldownMs = options.cooldownMs ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? 300_000;
  const forcedRefetchLimit = options.forcedRefetchLimit ?? 2;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const maxBytes = options.maxBytes ?? 65_536;
  const now = options.now ?? Date.now;
  const target = new URL(url);

  let keys: Map<string, CryptoKey> | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY; // start of the last successful fetch
  let attemptedAt = Number.NEGATIVE_INFINITY; // start of the last fetch, successful or not
  let lastFailure: string | undefined;
  let inflight: Promise<RefreshOutcome> | undefined;
  // Forced refetches in the current window; never longer than `forcedRefetchLimit`.
  const forced: Array<{ kid: string; at: number }> = [];

  async function load(): Promise<RefreshOutcome> {
    try {
      const response = await fetchImpl(target, {
        headers: { accept: 'application/jwk-set+json, application/json', 'cache-control': 'no-cache' },
        // The trust root must not move: a redirect is a misconfiguration, not something to follow.
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return { ok: false, message: `JWKS fetch answered HTTP ${response.status}` };
      }
      const document: unknown = JSON.parse(await readCapped(response, maxBytes));
      keys = (await importJwks(document)).keys;
      return { ok: true };
    } catch (error) {
      return { ok: false, message: `JWKS fetch failed: ${describe(error)}` };
    }
  }

  function refresh(): Promise<RefreshOutcome> {
    const startedAt = now();
    attemptedAt = startedAt;
    const pending = load().then((outcome) => {
      if (outcome.ok) {
        fetchedAt = startedAt;
        lastFailure = undefined;
      } else {
        lastFailure = outcome.message;
      }
      return outcome;
    });
    inflight = pending;
    void pending.finally(() => {
      if (inflight === pending) inflight = undefined;
    });
    return pending;
  }

  /** One forced refetch per kid and `forcedRefetchLimit` in all, per sliding cooldown window. */
  function takeForcedRefetch(kid: string, at: number): boolean {
    while (forced.length > 0 && at - forced[0]!.at >= cooldownMs) forced.shift();
    if (forced.length >= forcedRefetchLimit || forced.some((entry) => entry.kid === kid)) return false;
    forced.push({ kid, at });
    return true;
  }

  async function lookupAfter(refreshing: Promise<RefreshOutcome>, kid: string): Promise<KeyLookup> {
    const outcome = await refreshing;
    if (!outcome.ok) return { found: false, reason: 'KEY_SET_UNAVAILABLE', message: outcome.message };
    const key = keys?.get(kid);
    if (key) return { found: true, key };
    return { found: false, reason: 'UNKNOWN_KEY_ID', message: `the JWKS has no key with kid ${kid}` };
  }

  return {
    getKey: async function getRemoteKey(kid: string): Promise<KeyLookup> {
      // Join a fetch already under way instead of starting another one.
      while (inflight) await inflight;
      const at = now();
      const coolingDown = at - attemptedAt < cooldownMs;
      if (keys && at - fetchedAt < maxAgeMs) {
        const key = keys.get(kid);
        if (key) return { found: true, key };
        if (!coolingDown || takeForcedRefetch(kid, at)) return lookupAfter(refresh(), kid);
        return {
          found: false,
          reason: 'KEY_SET_UNAVAILABLE',
          message: `kid ${kid} is not in the cached JWKS and the refetch limit is reached; retry after the cooldown`,
        };
      }
      if (!coolingDown) return lookupAfter(refresh(), kid);
      return {
        found: false,
        reason: 'KEY_SET_UNAVAILABLE',
        message: `${lastFailure ?? 'JWKS fetch failed'}; retry after the cooldown`,
      };
    },
  };
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw new Error(`body over ${maxBytes} bytes`);
  }
  // The fetch's own timeout bounds the read, so the reader needs no deadline.
  const read = await readWebBytes(response.body, maxBytes, NEVER_EXPIRES);
  if (read.kind === 'aborted') throw read.cause;
  if (read.kind !== 'ok') throw new Error(`body over ${maxBytes} bytes`);
  // Decoded as Buffer decodes (a leading BOM kept, so such a body is not JSON, as before).
  return Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength).toString('utf8');
}

/** A short, non-secret description of a fetch failure for the lookup's message. */
function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    if (error instanceof SyntaxError) return 'body is not JSON';
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
