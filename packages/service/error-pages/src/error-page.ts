import type { Logger } from '@sess/core';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@sess/db';
import {
  htmlPage,
  type Messages,
  type MessageView,
  messagesFor,
  pageLanguage,
  renderMessagePage,
  withoutPicker,
} from '@sess/web';
import { classifyPageFailure, type PageFailure } from './classify-page-failure.ts';

/** What a page's status is for each failure. */
const STATUS = { unavailable: 503, bad_input: 400, not_found: 404, internal: 500 } as const satisfies Record<PageFailure, number>;

export interface ErrorPageOptions {
  /** Where the page's one link goes: the page to try again from (not offered on a 500). */
  backTo?: string;
  /** A face's own look for a failure (the answer pages draw theirs); status and headers stay the mapper's. */
  render?: Partial<Record<PageFailure, (nonce: string) => string>>;
  /** The nonce the face's own middleware already put in the page headers. */
  nonce?: string;
  /** The request: the page is in its language (without the picker: this address is not a page to link to again), else in English. */
  request?: Request | undefined;
  /** Where the failure is logged (the request's logger), by its summary only, never its message. */
  logger?: Logger | undefined;
  /** The log event's prefix, e.g. `accounts.http`: `<prefix>.database_failed` (warn) or `<prefix>.unhandled` (error). */
  event?: string;
}

function messageOf(m: Messages, failure: PageFailure, backTo: string | undefined): MessageView {
  const link = backTo ? { link: { href: backTo, label: m.t('errors.tryAgain') } } : {};
  switch (failure) {
    case 'unavailable':
      return {
        title: m.t('errors.unavailable.title'),
        message: m.t('errors.unavailable.message'),
        tone: 'warn',
        ...link,
      };
    case 'bad_input':
      // @sess/db's UNSTORABLE_INPUT_MESSAGE, in the page's language.
      return { title: m.t('errors.badInput.title'), message: m.t('errors.badInput.message'), tone: 'error', ...link };
    case 'not_found':
      return { title: m.t('errors.notFound.title'), message: m.t('errors.notFound.message'), tone: 'error' };
    case 'internal':
      return { title: m.t('errors.internal.title'), message: m.t('errors.internal.message'), tone: 'error' };
  }
}

function log(failure: PageFailure, error: unknown, options: ErrorPageOptions): void {
  const prefix = options.event ?? 'http.page';
  switch (failure) {
    case 'unavailable':
    case 'bad_input':
      options.logger?.warn({ event: `${prefix}.database_failed`, err: error }, 'page: database failed');
      return;
    case 'internal':
      options.logger?.error({ event: `${prefix}.unhandled`, err: error }, 'page: unhandled error');
      return;
    case 'not_found':
      return;
  }
}

/**
 * The one mapper from a thrown value to an HTML page, for every face that answers with pages
 * (sign-in and the account pages, the OAuth authorization, consent and connected-apps pages,
 * the answer pages, the review page): while the database is out of reach, 503 "Sess is briefly
 * unavailable" with `Retry-After`, never the 500; characters it cannot store, 400 with the
 * bad-input net's message; `NOT_FOUND`, 404; anything else, a generic 500 whose cause goes only
 * to the log. Every page carries the strict page headers.
 */
export function errorPage(error: unknown, options: ErrorPageOptions = {}): Response {
  const failure = classifyPageFailure(error);
  log(failure, error, options);
  const language = options.request ? withoutPicker(pageLanguage(options.request)) : undefined;
  const messages = language?.messages ?? messagesFor('en');
  const render =
    options.render?.[failure] ?? ((nonce: string) => renderMessagePage(messageOf(messages, failure, options.backTo), nonce));
  return htmlPage(STATUS[failure], render, {
    ...(options.nonce ? { nonce: options.nonce } : {}),
    ...(language ? { language } : {}),
    ...(failure === 'unavailable' ? { headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } } : {}),
  });
}
