/*
 * Run by render-document.test.ts in a fresh `node --expose-internals` process, so that hono's
 * one-time lookup of AsyncLocalStorage happens here. Prints one JSON line: whether an async init
 * hook existed before the renders, after them, and after an AsyncLocalStorage.run of its own (the
 * control: it shows the check can see a hook). With `bare`, the first render is a plain
 * `toString()` of a JSX element, as hono's documentation does it, instead of Sess's pages.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { renderSignInPage } from './account/sign-in-page.tsx';
import { renderAnswerPage } from './answer/answer-page.tsx';
import { commitSurface, openView } from './answer/fixtures.ts';
import { buildConnectView } from './connect/connect-view.ts';
import { renderHomePage } from './home/home-page.tsx';

const internals = createRequire(import.meta.url)('internal/async_hooks') as { initHooksExist(): boolean };
const before = internals.initHooksExist();
const nonce = 'bm9uY2Utbm9uY2Utbm9uY2U=';
const pages: string[] = [];
if (process.argv.includes('bare')) pages.push(String(<p>bare</p>));
pages.push(
  renderHomePage(
    {
      connect: buildConnectView('http://localhost:8787'),
      signedIn: null,
      signinHref: '/signin',
      signupHref: '/signup',
      accountHref: '/account',
    },
    nonce,
  ),
  renderSignInPage({ returnTo: '/account', csrf: 'csrf', signupHref: '/signup', oidc: null }, nonce),
  renderAnswerPage(openView(commitSurface()), nonce),
);
await Promise.resolve();
const after = internals.initHooksExist();
new AsyncLocalStorage().run(1, () => undefined);
const control = internals.initHooksExist();
console.log(JSON.stringify({ before, after, control, pages: pages.map((html) => html.length) }));
