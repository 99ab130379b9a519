import { checkCsrfToken, csrfToken, hashSecret } from '@sess/core';

/** What a page form does; a token for one purpose is refused for another. */
export type PagePurpose = 'answer' | 'extend' | 'start';

/**
 * CSRF tokens of the answer page: core's `csrfToken`, bound to the SHA-256 of the link token and
 * the revision the form was rendered for. Bound to the link, so a token of one link is useless
 * on another; bound to the revision, so a form left open across a publish cannot answer the
 * next step blindly. The link itself is already a bearer capability; this refuses posts a
 * third-party page forges.
 */
export interface PageCsrf {
  issue(purpose: PagePurpose, linkToken: string, revision: number): string;
  verify(purpose: PagePurpose, linkToken: string, revision: number, presented: unknown): boolean;
}

/** What a page token is bound to: the link (by its hash, as stored) and the revision. */
const bindingOf = (linkToken: string, revision: number) => `link:${hashSecret(linkToken)}:${revision}`;

/** The page's CSRF tokens under the server secret. */
export function createPageCsrf(secret: string): PageCsrf {
  return {
    issue: (purpose, linkToken, revision) => csrfToken(secret, bindingOf(linkToken, revision), purpose),
    verify: (purpose, linkToken, revision, presented) =>
      checkCsrfToken(secret, bindingOf(linkToken, revision), purpose, presented),
  };
}
