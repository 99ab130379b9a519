import { randomBytes } from 'node:crypto';

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
