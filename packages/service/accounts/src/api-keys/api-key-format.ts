import { newSecret } from '@sess/core';

/** Every API key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'sess_';
/** How much of a key is kept in clear to recognise it in a list: `sess_` + 7 characters. */
export const API_KEY_DISPLAY_LENGTH = 12;

const SHAPE = /^sess_[A-Za-z0-9_-]{43}$/;

/** A new key: `sess_` + 256 random bits in base64url. Shown once, stored only as SHA-256. */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${newSecret(32)}`;
}

/** True when `value` has the shape of an API key (checked before any database lookup). */
export function isApiKeyShape(value: string): boolean {
  return SHAPE.test(value);
}

/** The public part of a key shown in lists: its first 12 characters. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, API_KEY_DISPLAY_LENGTH);
}
