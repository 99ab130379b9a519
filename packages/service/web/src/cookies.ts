/*
 * Every cookie Sess sets goes through `serializeCookie` (HttpOnly, SameSite, Secure on https,
 * host-only, Max-Age) and is read back by `readCookieValues`.
 */

/**
 * The values of every cookie named `name` in a `Cookie` header, in order (a sibling sub-domain
 * may have planted a second one; the caller tries each). At most 5, so a huge header costs
 * nothing.
 */
export function readCookieValues(cookieHeader: string | undefined, name: string): string[] {
  if (!cookieHeader) return [];
  const values: string[] = [];
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    values.push(part.slice(eq + 1).trim());
    if (values.length === 5) break;
  }
  return values;
}

export interface CookieOptions {
  /** `Secure` is set when the public URL is https (browsers drop Secure cookies on plain http). */
  secure: boolean;
  /** Seconds until the browser forgets the cookie; 0 clears it. */
  maxAgeSeconds: number;
  /** Defaults to `Lax`. */
  sameSite?: 'Lax' | 'Strict';
  /** Defaults to `/`. */
  path?: string;
}

/**
 * A `Set-Cookie` value: always HttpOnly, SameSite, host-only (no Domain attribute), and Max-Age
 * rather than Expires (relative to this response, whatever the client's clock says).
 * @see https://www.rfc-editor.org/rfc/rfc6265#section-4.1
 */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Lax'}`,
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The `Set-Cookie` value that makes the browser forget a cookie set with the same name and path. */
export function clearCookie(name: string, options: { secure: boolean; path?: string }): string {
  return serializeCookie(name, '', { ...options, maxAgeSeconds: 0 });
}
