import { OIDC_CALLBACK_PATH } from '@sess/accounts';
import { signInUpstream, startTestIdp, TestBrowser, type TestIdp } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * "Sign in with …" in the whole app, configured from OIDC_ISSUER, OIDC_CLIENT_ID and
 * OIDC_CLIENT_SECRET as `sess serve` would be, against a real OpenID Provider (oidc-provider).
 * The flow itself (PKCE, state, linking, refusals) is the accounts package's oidc test, on its
 * routes alone; this is the wiring from the configuration to those routes.
 */

let idp: TestIdp;
let server: AppServer;

beforeAll(async () => {
  idp = await startTestIdp();
  server = await startAppServer({
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_PROVIDER_NAME: 'Test IdP',
    },
  });
  idp.allowRedirects([`${server.url}${OIDC_CALLBACK_PATH}`]);
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
});

describe('sign-in with an upstream OpenID provider in the whole app', () => {
  it('works end to end in the whole app configured from OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET', async () => {
    idp.people.set('configured', { email: 'configured@example.com', email_verified: true });
    const page = await new TestBrowser(server.url).get('/signin');
    expect(page.html).toContain('Sign in with Test IdP');
    const { result, browser } = await signInUpstream(idp, server.url, 'configured');
    expect(result.status).toBe(303);
    expect((await browser.get('/account')).html).toContain('configured@example.com');
  });
});
