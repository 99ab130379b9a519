import { describe, expect, it } from 'vitest';
import { expectIsolated, spoof } from '../bidi-fixtures.ts';
import { renderPasskeysPage } from './passkeys-page.tsx';
import { renderSignInPage } from './sign-in-page.tsx';

const NONCE = 'bm9uY2U=';
const AT = new Date('2026-06-01T10:00:00Z');

describe('the passkeys page', () => {
  it('lists each passkey isolated, with its added and last-used times, Remove and Rename forms carrying their tokens', () => {
    const html = renderPasskeysPage(
      {
        email: 'a@example.com',
        passkeys: [{ id: 'cred_A-b', name: spoof('passkey'), createdAt: AT, lastUsedAt: null }],
        csrf: { register: 'reg', rename: 'ren', remove: 'rem', signout: 'out' },
      },
      NONCE,
    );
    expect(html).toContain('action="/account/passkeys/cred_A-b/remove"');
    expect(html).toContain('action="/account/passkeys/cred_A-b/rename"');
    expect(html).toContain(
      'Added <time datetime="2026-06-01T10:00:00.000Z">Jun 1, 2026, 10:00 AM (UTC)</time> · Last used Never',
    );
    expect(html).toContain('data-csrf="reg"');
    expect(html).toContain(`<script nonce="${NONCE}">`);
    expectIsolated(html, [spoof('passkey')]);
  });

  it('says what to do when there are none', () => {
    const html = renderPasskeysPage(
      { email: 'a@example.com', passkeys: [], csrf: { register: 'r', rename: 'n', remove: 'm', signout: 'o' } },
      NONCE,
    );
    expect(html).toContain('No passkeys yet.');
    expect(html).toContain('Adding a passkey needs JavaScript');
  });
});

describe('the sign-in page', () => {
  it('offers "Sign in with a passkey" (hidden until the script finds WebAuthn) only when given its token', () => {
    const base = { returnTo: '/account/keys', csrf: 'c', signupHref: null, oidc: null };
    const withPasskey = renderSignInPage({ ...base, passkey: { csrf: 'pk' } }, NONCE);
    expect(withPasskey).toMatch(
      /<button type="button" class="secondary wide" data-passkey="sign-in" hidden="">Sign in with a passkey/,
    );
    expect(withPasskey).toContain('data-return-to="/account/keys"');
    expect(renderSignInPage(base, NONCE)).not.toContain('passkey');
  });
});
