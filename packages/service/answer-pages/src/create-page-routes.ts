import type { FormsRuntime } from '@sess/forms';
import { newNonce, pageHeaders } from '@sess/web';
import { Hono, type MiddlewareHandler } from 'hono';
import type { PageAccounts } from './answerer-gate.ts';
import { createPageKit, type PageEnv } from './page-kit.ts';
import { mountAnswer } from './routes/answer.ts';
import { mountLinkActions } from './routes/link-actions.ts';
import { mountLinkPage } from './routes/link-page.ts';
import { mountWait, PAGE_WAIT_MS } from './routes/wait.ts';

export type { PageAccounts, PagePasskeys } from './answerer-gate.ts';
export { RESPONDENT_COOKIE } from './page-kit.ts';
export { PAGE_BODY_LIMIT_BYTES } from './routes/answer.ts';
export { PAGE_WAIT_MS } from './routes/wait.ts';

export interface PageRoutesDeps {
  runtime: FormsRuntime;
  /** The server secret; the CSRF key is derived from it. */
  secret: string;
  /** How long one wait request parks (tests shorten it). */
  waitMs?: number;
  /**
   * Whether a cookie set on a request's Host may be `Secure` (that origin is https). The pages
   * answer on PUBLIC_URL and on SESS_LINK_URL, which may differ in scheme; without it, PUBLIC_URL's.
   */
  secureCookieFor?: (host: string | undefined) => boolean;
  /**
   * Who is signed in on a browser, for forms above assurance `link` (answerer-gate.ts). Without
   * it nobody is: such a form sends every browser to sign in and takes no answer on its page.
   */
  accounts?: PageAccounts;
}

/**
 * Every response of the human pages carries the page headers: a strict CSP with this
 * response's nonce, no framing, no referrer (the URL is a capability), no caching, no indexing.
 */
function withPageHeaders(): MiddlewareHandler<PageEnv> {
  return async function pageHeadersMiddleware(c, next) {
    const nonce = newNonce();
    c.set('nonce', nonce);
    await next();
    for (const [name, value] of Object.entries(pageHeaders({ nonce }))) c.res.headers.set(name, value);
  };
}

/**
 * The human pages behind a link, for apps/server to mount (each route in routes/):
 * - `GET /s/:token` shows the link's current state (form, waiting, done, withdrawn, lapsed,
 *   expired; an Ask's Start page); `GET /s/:token/receipt` downloads the receipt of the answer
 *   the page shows (`.jws`) — routes/link-page.ts;
 * - `POST /s/:token` answers — routes/answer.ts;
 * - `POST /s/:token/extend` asks for more time; `POST /s/:token/start` starts this browser's
 *   respondent page of an Ask — routes/link-actions.ts;
 * - `GET /s/:token/wait?revision=N&state=S` long-polls (JSON) for the follow script of the
 *   form and the waiting page — routes/wait.ts.
 * Unknown tokens get a plain 404 page. Tokens never reach a log line: the app logs route patterns.
 */
export function createPageRoutes(deps: PageRoutesDeps): Hono<PageEnv> {
  const { runtime } = deps;
  const publicIsHttps = runtime.publicUrl.startsWith('https:');
  const kit = createPageKit(runtime, deps.secret, deps.accounts);
  const app = new Hono<PageEnv>();
  app.use('/s/*', withPageHeaders());
  mountLinkPage(app, kit);
  mountAnswer(app, kit);
  mountLinkActions(app, kit, deps.secureCookieFor ?? (() => publicIsHttps));
  mountWait(app, kit, deps.waitMs ?? PAGE_WAIT_MS);
  return app;
}
