import { randomBytesFast } from './random.ts';

/**
 * Prefixed ids from one registry. The random part is 128 bits in base32 (Crockford-free
 * lower-case RFC 4648 alphabet), so ids are unguessable, URL-safe and case-stable.
 */
export const ID_PREFIXES = {
  workspace: 'ws',
  user: 'usr',
  membership: 'mem',
  apiKey: 'key',
  browserSession: 'bs',
  oauthClient: 'cli',
  oauthGrant: 'grt',
  oauthRefreshToken: 'rt',
  oauthTokenFamily: 'rtf',
  oauthAccessToken: 'at',
  session: 'ses',
  answer: 'evt',
  ask: 'ask',
  respondent: 'rsp',
  handle: 'hdl',
  signingKey: 'sk',
  request: 'req',
  pushSubscription: 'dev',
  notification: 'ntf',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  /** A webhook `test` event's id (its `webhook-id`): no chain event stands behind it. */
  webhookTest: 'wht',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Lower-case base32 without padding. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** A new id such as `ses_3mz…` (prefix + 26 base32 characters = 130 bits of output, 128 random). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${base32(randomBytesFast(16))}`;
}

/** True when `value` looks like an id of `kind` (shape only; existence is the database's job). */
export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[a-z2-7]{26}$`).test(value);
}
