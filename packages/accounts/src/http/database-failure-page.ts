import { classifyDatabaseError, UNAVAILABLE_RETRY_AFTER_SECONDS, UNSTORABLE_INPUT_MESSAGE } from '@sess/db';
import { htmlPage, renderMessagePage } from '@sess/web';

/**
 * The page every HTML face (the answer pages, sign-in and the account pages, the OAuth
 * authorization and consent pages, the review page) answers when the database failed in a way a
 * person can act on: while it cannot be reached, 503 "Sess is briefly unavailable" with
 * `Retry-After` — never the 500 "something went wrong on our side"; for characters it cannot
 * store, 400 with the bad-input net's message. Undefined for any other failure, which stays the
 * face's own 500 page. `backTo` is where the page's one link goes (the page to try again).
 */
export function databaseFailurePage(error: unknown, options: { backTo?: string } = {}): Response | undefined {
  const failure = classifyDatabaseError(error);
  const link = options.backTo ? { href: options.backTo, label: 'Try again' } : undefined;
  switch (failure.kind) {
    case 'unavailable':
      return htmlPage(
        503,
        (nonce) =>
          renderMessagePage(
            {
              title: 'Sess is briefly unavailable',
              message: 'Sess is briefly unavailable, try again in a moment.',
              tone: 'warn',
              ...(link ? { link } : {}),
            },
            nonce,
          ),
        { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } },
      );
    case 'bad_input':
      return htmlPage(400, (nonce) =>
        renderMessagePage(
          { title: 'Not sent', message: UNSTORABLE_INPUT_MESSAGE, tone: 'error', ...(link ? { link } : {}) },
          nonce,
        ),
      );
    case 'other':
      return undefined;
  }
}
