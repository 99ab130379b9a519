import { createHmac } from 'node:crypto';
import { hashSecret, safeEqual } from '@sess/core';

/** What a page form does; a token for one purpose is refused for another. */
export type PagePurpose = 'answer' | 'extend' | 'start';

/**
 * CSRF tokens of the answer page: an HMAC (keyed from the server secret) over the purpose, the
 * SHA-256 of the link token and the revision the form was rendered for. Stateless, so any
 * replica checks it; bound to the link, so a token of one link is useless on another; bound to
 * the revision, so a form left open across a publish cannot answer the next step blindly.
 * The link itself is already a bearer capability; this refuses posts a third-party page forges.
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
export interface PageCsrf {
  issue(purpose: PagePurpose, linkToken: string, revision: number): string;
  verify(purpose: PagePurpose, linkToken: string, revision: number, presented: unknown): boolean;
}

/** Derives the page CSRF key once from the server secret (never the secret itself). */
export function createPageCsrf(secret: string): PageCsrf {
  const key = createHmac('sha256', secret).update('sess.page-csrf.v1').digest();
  const issue = (purpose: PagePurpose, linkToken: string, revision: number) =>
    createHmac('sha256', key)
      .update(`${purpose}\n${hashSecret(linkToken)}\n${revision}`)
      .digest('base64url');
  return {
    issue,
    verify(purpose, linkToken, revision, presented) {
      if (typeof presented !== 'string' || presented === '') return false;
      return safeEqual(issue(purpose, linkToken, revision), presented);
    },
  };
}
