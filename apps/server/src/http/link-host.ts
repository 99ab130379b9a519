import { RESPONDENT_COOKIE } from '@sess/answer-pages';
import {
  htmlPage,
  LANGUAGE_COOKIE,
  pageLanguage,
  readCookieValues,
  renderMessagePage,
  STYLESHEET_PATH,
  TIME_ZONE_COOKIE,
  withoutPicker,
} from '@sess/web';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import type { AppEnv } from './app-env.ts';

/**
 * The two origins one process may serve: PUBLIC_URL (accounts, OAuth, /mcp, /v1, and the answer
 * pages of old links) and SESS_LINK_URL (answer links a phone opens). Which one a request is on
 * is decided by its Host alone, compared as a browser writes it (lower case, no default port).
 */
export interface LinkOrigins {
  /** True when the request names SESS_LINK_URL's host and that host is not PUBLIC_URL's. */
  isLinkHost(host: string | undefined): boolean;
  /** Whether a cookie set on this Host may be `Secure`: its origin is https (browsers drop Secure cookies on http). */
  secureCookieFor(host: string | undefined): boolean;
}

/** `host[:port]` as the URL parser writes it for `protocol`, or undefined when it is no host at all. */
function normalizedHost(protocol: string, host: string): string | undefined {
  try {
    const url = new URL(`${protocol}//${host}`);
    return url.pathname === '/' && !url.username && !url.password && !url.search ? url.host : undefined;
  } catch {
    return undefined;
  }
}

export function createLinkOrigins(config: Pick<Config, 'publicUrl' | 'linkUrl'>): LinkOrigins {
  const link = new URL(config.linkUrl);
  const publicSecure = new URL(config.publicUrl).protocol === 'https:';
  const separate = link.host !== new URL(config.publicUrl).host;
  const isLinkHost = (host: string | undefined) =>
    separate && host !== undefined && normalizedHost(link.protocol, host) === link.host;
  return {
    isLinkHost,
    secureCookieFor: (host) => (isLinkHost(host) ? link.protocol === 'https:' : publicSecure),
  };
}

/**
 * What a person on the link origin may reach: the answer pages (`/s/…`: the page, its posts, its
 * live wait and its receipt; the QR code is drawn inside the page), the stylesheet they link, and
 * health. Not the installable web app: it opens on /account/notifications and subscribes a
 * signed-in account's device, and neither that page nor a session exists on this origin.
 */
function servedOnLinkHost(method: string, path: string): boolean {
  if (path.startsWith('/s/')) return true;
  return (method === 'GET' || method === 'HEAD') && (path === STYLESHEET_PATH || path === '/healthz');
}

/**
 * Leaves the answer pages' own cookie in the request and drops every other one before a handler
 * runs. Cookies ignore ports, so when SESS_LINK_URL is PUBLIC_URL's host on another port the
 * browser sends PUBLIC_URL's session cookie here too; gone from the request, no handler on this
 * origin can read a session, whatever it calls.
 */
function keepOnlyAnswerPageCookie(headers: Headers): void {
  const cookie = headers.get('cookie') ?? undefined;
  // The answer page's own cookie, and the two preferences every page reads (language, time zone):
  // none of them signs anyone in.
  const kept = [RESPONDENT_COOKIE, LANGUAGE_COOKIE, TIME_ZONE_COOKIE].flatMap((name) =>
    readCookieValues(cookie, name).map((value) => `${name}=${value}`),
  );
  if (kept.length === 0) headers.delete('cookie');
  else headers.set('cookie', kept.join('; '));
}

/**
 * On SESS_LINK_URL's Host, everything but the answer pages, the stylesheet and health answers 404
 * and names where Sess is: no sign-in page, OAuth, /mcp, /v1 or web app there, so no session
 * cookie is ever set (or read: see keepOnlyAnswerPageCookie) on an address that may be plain http
 * on a shared network. A page for a browser, JSON for anything else.
 */
export function linkHostOnly(config: Pick<Config, 'publicUrl' | 'linkUrl'>, origins: LinkOrigins): MiddlewareHandler<AppEnv> {
  const message = `This address serves answer links only; your Sess is at ${config.publicUrl}.`;
  const url = config.publicUrl;
  return async function linkHostOnlyMiddleware(c, next) {
    if (!origins.isLinkHost(c.req.header('host'))) return next();
    if (servedOnLinkHost(c.req.method, c.req.path)) {
      keepOnlyAnswerPageCookie(c.req.raw.headers);
      return next();
    }
    c.get('logger')?.info({ event: 'http.link_host_refused', method: c.req.method }, 'not served on the link host');
    if ((c.req.header('accept') ?? '').includes('text/html')) {
      // In the person's language, without the picker (this address serves no other page).
      const language = withoutPicker(pageLanguage(c.req.raw));
      const m = language.messages;
      const page = {
        title: m.t('errors.linkHost.title'),
        message: m.t('errors.linkHost.message', { url }),
        tone: 'error' as const,
      };
      return htmlPage(404, (nonce) => renderMessagePage(page, nonce), { language });
    }
    return c.json({ error: { code: 'NOT_FOUND', message, retryable: false } }, 404, { 'Cache-Control': 'no-store' });
  };
}
