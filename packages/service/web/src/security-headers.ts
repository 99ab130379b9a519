import { randomBytes } from 'node:crypto';
import type { PageLanguage } from './i18n/page-language.ts';
import { inLanguage } from './i18n/render-scope.ts';

/** A fresh CSP nonce for one response. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export interface PageHeaderOptions {
  nonce: string;
  /**
   * Where forms on this page may post. Chrome also applies `form-action` to the redirect that
   * follows a post, so the OAuth consent page passes its client's redirect origin here.
   */
  formAction?: string[];
}

/**
 * The headers of every HTML page: a strict CSP (only our stylesheet and the nonce'd script),
 * no framing, no referrer (page URLs are capabilities), never cached, never indexed.
 */
export function pageHeaders({ nonce, formAction = ["'self'"] }: PageHeaderOptions): Record<string, string> {
  const csp = [
    "default-src 'none'",
    "style-src 'self'",
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex, nofollow',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/**
 * One server-rendered page as a response: a fresh nonce for `render`, the page headers above,
 * and any `headers` beside them (a list value is sent as repeated headers, e.g. Set-Cookie).
 */
export function htmlPage(
  status: number,
  render: (nonce: string) => string,
  options: {
    formAction?: string[];
    headers?: Record<string, string | string[]>;
    nonce?: string;
    /** The language the page is shown in (`pageLanguage`); English when absent. */
    language?: PageLanguage;
  } = {},
): Response {
  // A face whose own middleware already chose this response's nonce passes it in.
  const nonce = options.nonce ?? newNonce();
  const headers = new Headers({
    ...pageHeaders({ nonce, ...(options.formAction ? { formAction: options.formAction } : {}) }),
    'Content-Type': 'text/html; charset=utf-8',
  });
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const { language } = options;
  if (!language) return new Response(render(nonce), { status, headers });
  headers.set('Content-Language', language.messages.tag);
  if (language.rememberCookie) headers.append('Set-Cookie', language.rememberCookie);
  return new Response(
    inLanguage(language.messages, () => render(nonce)),
    { status, headers },
  );
}

/** A 303 See Other to a same-origin path (after a form post, or to sign in), never cached, with optional cookies. */
export function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of cookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}
