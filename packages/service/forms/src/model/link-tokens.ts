import { newSecret } from '@sess/core';

/*
 * The link is a bearer capability: 256 random bits, base64url. Only its SHA-256 is stored, so a
 * database dump holds no working link. A respondent page of an Ask has its own token, one
 * character longer and starting with `r`, so a token says which table to look in without a
 * second query (and a person's page never shows who else answered).
 */

const LINK = /^[A-Za-z0-9_-]{43}$/;
const RESPONDENT = /^r[A-Za-z0-9_-]{43}$/;

/** A new session (or Ask) link token: 43 base64url characters, 256 bits. */
export function newLinkToken(): string {
  return newSecret(32);
}

/** A new respondent page token: `r` + 43 base64url characters, 256 bits. */
export function newRespondentToken(): string {
  return `r${newSecret(32)}`;
}

/** Which kind of token this is by its shape, or `null` for something that cannot be a token. */
export function classifyToken(token: string): 'link' | 'respondent' | null {
  if (typeof token !== 'string') return null;
  if (LINK.test(token)) return 'link';
  if (RESPONDENT.test(token)) return 'respondent';
  return null;
}

/** The page address of a token: `<PUBLIC_URL>/s/<token>`. */
export function linkUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/s/${token}`;
}
