import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { expect } from 'vitest';
import { decodeEntities, TestBrowser } from './form-browser.ts';

/*
 * A real OpenID Provider (node-oidc-provider v9) on 127.0.0.1 for "Sign in with …": one client,
 * PKCE required, the people it knows set by the test. Shared by the accounts package's tests (the
 * account routes alone) and apps/server's (the whole app configured from OIDC_* variables).
 */

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** People known to the provider: login name → claims. */
  people: Map<string, { email: string; email_verified: boolean }>;
  /** Registers the client's redirect URIs (the provider is made once every callback is known). */
  allowRedirects(redirectUris: string[]): void;
  /**
   * Plays a person at the provider: follows redirects from the authorization URL, signs in as
   * `login`, approves (or aborts) consent, and returns the callback URL the provider sends back.
   */
  actAtProvider(authorizeUrl: string, login: string, options?: { abort?: boolean }): Promise<URL>;
  close(): Promise<void>;
}

const CLIENT_ID = 'sess-test';
const CLIENT_SECRET = 'a-client-secret-for-the-test-provider';

/** The action of the first form on an oidc-provider interaction page. */
function formAction(html: string): string {
  return decodeEntities(html.match(/<form[^>]*action="([^"]+)"/)![1]!);
}

export async function startTestIdp(): Promise<TestIdp> {
  const people: TestIdp['people'] = new Map();
  let provider: Provider | undefined;
  const idp = createServer((req, res) => {
    if (!provider) {
      res.writeHead(503).end('the provider has no client yet');
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', () => resolve()));
  const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    people,
    allowRedirects(redirectUris) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        pkce: { required: () => true },
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        cookies: { keys: ['test-cookie-key-for-the-provider'] },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx, sub) {
          const person = people.get(sub);
          if (!person) return undefined;
          return { accountId: sub, claims: async () => ({ sub, ...person }) };
        },
      });
    },
    async actAtProvider(authorizeUrl, login, options = {}) {
      const at = new TestBrowser(issuer);
      let next: string | null = authorizeUrl;
      for (let hop = 0; hop < 12 && next; hop++) {
        const url = new URL(next, issuer);
        if (url.origin !== issuer) return url;
        const page = await at.get(url.pathname + url.search);
        if (page.status >= 300 && page.status < 400) {
          next = page.location;
          continue;
        }
        expect(page.status, page.html.slice(0, 500)).toBe(200);
        const action = formAction(page.html);
        const isLogin = page.html.includes('name="prompt" value="login"');
        if (options.abort && !isLogin) {
          const abortAt = page.html.match(/href="([^"]*\/abort)"/)?.[1] ?? `${action}/abort`;
          next = (await at.get(decodeEntities(abortAt))).location;
          continue;
        }
        const posted = await at.post(action, isLogin ? { prompt: 'login', login, password: 'any' } : { prompt: 'consent' });
        next = posted.location;
      }
      throw new Error('the provider never redirected back');
    },
    close: () => new Promise<void>((resolve) => idp.close(() => resolve())),
  };
}

/** Starts "Sign in with …" from a Sess sign-in page in `browser`; returns the provider URL. */
export async function startUpstreamSignIn(browser: TestBrowser, returnTo = '/account'): Promise<URL> {
  const page = await browser.get(`/signin?return_to=${encodeURIComponent(returnTo)}`);
  const at = page.html.indexOf('action="/signin/oidc"');
  expect(at).toBeGreaterThan(0);
  const csrf = decodeEntities(page.html.slice(at).match(/name="_csrf" value="([^"]+)"/)![1]!);
  const started = await browser.post('/signin/oidc', { _csrf: csrf, return_to: returnTo });
  expect(started.status).toBe(303);
  return new URL(started.location!);
}

/** The whole round trip on the Sess at `baseUrl`; resolves with Sess's answer to the callback. */
export async function signInUpstream(
  idp: TestIdp,
  baseUrl: string,
  login: string,
  returnTo = '/account',
  browser = new TestBrowser(baseUrl),
) {
  const authorize = await startUpstreamSignIn(browser, returnTo);
  const callback = await idp.actAtProvider(authorize.toString(), login);
  const result = await browser.get(callback.pathname + callback.search);
  return { browser, result, authorize, callback };
}
