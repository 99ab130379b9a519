import { htmlPage, type Messages, type PageLanguage, pageLanguage, renderMessagePage, seeOther } from '@sess/web';
import type { Context } from 'hono';

/** The language each request's pages are shown in, once chosen (see `languageOf`). */
const chosen = new WeakMap<Request, PageLanguage>();

/** Sets the language of this request's pages (a signed-in person's: `accountPageLanguage`). */
export function setLanguage(c: Context, language: PageLanguage): void {
  chosen.set(c.req.raw, language);
}

/** The pages a person can come back to by GET: a post's answer is shown as one of them. */
const PAGES = ['/account/keys', '/account/passkeys', '/account/assurance', '/account', '/signin', '/signup'];

/**
 * The request a page's language is chosen from: the request itself for a GET; for a post, the
 * same headers at the page the form was on, so the picker's links on the answer lead to a page
 * that exists (never to the post's own path, with its ids).
 */
export function pageRequest(c: Context): Request {
  if (c.req.method === 'GET') return c.req.raw;
  const path = c.req.path;
  const page = PAGES.find((p) => path === p || path.startsWith(`${p}/`)) ?? '/account';
  return new Request(new URL(page, c.req.url), { headers: c.req.raw.headers });
}

/** The language of this request's pages: the one set for the signed-in person, else from the request alone. */
export function languageOf(c: Context): PageLanguage {
  let language = chosen.get(c.req.raw);
  if (!language) {
    language = pageLanguage(pageRequest(c));
    chosen.set(c.req.raw, language);
  }
  return language;
}

/** The messages of this request's pages, for texts built outside a page (errors, notices). */
export function messagesOf(c: Context): Messages {
  return languageOf(c).messages;
}

/** Sends one server-rendered page with the strict page headers (see `htmlPage`); `extra` adds headers such as Set-Cookie. */
export function sendPage(
  c: Context,
  status: number,
  render: (nonce: string) => string,
  extra: Record<string, string | string[]> = {},
): Response {
  return htmlPage(status, render, { headers: extra, language: languageOf(c) });
}

export { seeOther };

/** Reads a urlencoded/multipart form into strings (files and repeated names are dropped). */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) return {};
  const body = await c.req.parseBody();
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
  return form;
}

/** `?return_to=…` for a link, only when it is not the default. */
export function withReturnTo(path: string, returnTo: string): string {
  return returnTo === '/account' ? path : `${path}?return_to=${encodeURIComponent(returnTo)}`;
}

/** Minutes, rounded up, for a person-facing "try again in" message (a plural in the catalogs). */
export function minutesOf(seconds: number): number {
  return Math.max(1, Math.ceil(seconds / 60));
}

/** A form refused for a missing or wrong CSRF token: nothing changed; reload and retry. */
export function refusedForm(c: Context, backTo: string): Response {
  const m = messagesOf(c);
  return sendPage(c, 403, (nonce) =>
    renderMessagePage(
      {
        title: m.t('account.refused.title'),
        message: m.t('account.refused.message'),
        link: { href: backTo, label: m.t('account.message.back') },
        tone: 'error',
      },
      nonce,
    ),
  );
}
