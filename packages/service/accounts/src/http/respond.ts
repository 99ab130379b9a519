import { htmlPage, renderMessagePage, seeOther } from '@sess/web';
import type { Context } from 'hono';

/** Sends one server-rendered page with the strict page headers (see `htmlPage`); `extra` adds headers such as Set-Cookie. */
export function sendPage(
  _c: Context,
  status: number,
  render: (nonce: string) => string,
  extra: Record<string, string | string[]> = {},
): Response {
  return htmlPage(status, render, { headers: extra });
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

/** Minutes, rounded up, for a person-facing "try again in" message. */
export function minutesText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** A form refused for a missing or wrong CSRF token: nothing changed; reload and retry. */
export function refusedForm(c: Context, backTo: string): Response {
  return sendPage(c, 403, (nonce) =>
    renderMessagePage(
      {
        title: 'Nothing was changed',
        message: 'This page had expired (or the request did not come from it). Go back, reload the page and try again.',
        link: { href: backTo, label: 'Back' },
        tone: 'error',
      },
      nonce,
    ),
  );
}
