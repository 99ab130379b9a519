import { newNonce, pageHeaders, renderMessagePage } from '@sess/web';
import type { Context } from 'hono';

/**
 * Sends one server-rendered page with the strict page headers (CSP with this response's nonce,
 * no framing, no caching). `render` gets the nonce.
 */
export function sendPage(
  _c: Context,
  status: number,
  render: (nonce: string) => string,
  extra: Record<string, string | string[]> = {},
): Response {
  const nonce = newNonce();
  const headers = new Headers({ ...pageHeaders({ nonce }), 'Content-Type': 'text/html; charset=utf-8' });
  for (const [name, value] of Object.entries(extra)) {
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Response(render(nonce), { status, headers });
}

/** A 303 See Other to a same-origin path (after a form post), with optional cookies. */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}

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
