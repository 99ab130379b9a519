import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBytesFast } from './random.ts';

/*
 * Webhook signatures in the Standard Webhooks format (https://www.standardwebhooks.com/), written
 * once for the sender (@sess/webhooks) and the receiver (@sess/client's verifyWebhook):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`,
 * the key the bytes of a `whsec_<base64>` secret. Several signatures are separated by spaces (a
 * rotation signs with the new and the old secret); a receiver accepts any one that verifies.
 */

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytesFast(32).toString('base64');
}

/** The key bytes of a `whsec_…` secret (a bare base64 secret is taken too, as the standard's libraries do). */
function secretKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('webhook secret holds no key bytes');
  return key;
}

/** One `v1,<base64>` signature of `body` sent as `id` at `timestamp` (unix seconds). */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret, space-separated. */
export function webhookSignatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' ');
}

/** True when any `v1,` signature of `header` is `body`'s under `secret` (compared in constant time). */
export function webhookSignatureMatches(secret: string, header: string, id: string, timestamp: number, body: string): boolean {
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body).slice(3), 'base64');
  let found = false;
  for (const part of header.split(' ')) {
    if (!part.startsWith('v1,')) continue;
    const given = Buffer.from(part.slice(3), 'base64');
    // Every candidate is compared, so the time taken names none of them.
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = true;
  }
  return found;
}
