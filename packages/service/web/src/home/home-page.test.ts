import { describe, expect, it } from 'vitest';
import { buildConnectView } from '../connect/connect-view.ts';
import { COPY_SCRIPT } from '../connect/copy-script.ts';
import { TIME_ZONE_SCRIPT } from '../i18n/index.ts';
import { renderHomePage } from './home-page.tsx';
import type { HomeView } from './view.ts';

const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';

function homeView(extra: Partial<HomeView> = {}): HomeView {
  return {
    connect: buildConnectView('http://localhost:8787'),
    signedIn: null,
    signinHref: '/signin',
    signupHref: '/signup',
    accountHref: '/account',
    ...extra,
  };
}

describe('the home page', () => {
  it('says what Sess does, then the MCP URL and how to connect', () => {
    const html = renderHomePage(homeView(), NONCE);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<h1>Sess</h1>');
    expect(html).toContain('Sess lets an AI agent ask you something and carry on with your answer.');
    expect(html).toContain('<code id="mcp-url" class="copy-text">http://localhost:8787/mcp</code>');
    expect(html).toContain('<h2 id="connect-heading">Connect your agent</h2>');
  });

  it('signed out: Sign in and Create account; no account header', () => {
    const html = renderHomePage(homeView(), NONCE);
    expect(html).toContain('<a class="button" href="/signin">Sign in</a>');
    expect(html).toContain('<a class="button secondary" href="/signup">Create account</a>');
    expect(html).not.toContain('Your account');
    expect(html).not.toContain('Sign out');
  });

  it('signed out on a server without open sign-up: no Create account', () => {
    const html = renderHomePage(homeView({ signupHref: null }), NONCE);
    expect(html).toContain('Sign in');
    expect(html).not.toContain('Create account');
  });

  it('signed in: who, Sign out, and Your account instead of Sign in', () => {
    const html = renderHomePage(homeView({ signedIn: { email: 'ada@example.com', signoutCsrf: 'tok' } }), NONCE);
    expect(html).toContain('<strong>ada@example.com</strong>');
    expect(html).toContain('<a class="button" href="/account">Your account</a>');
    expect(html).toContain('value="tok"');
    expect(html).not.toContain('href="/signin"');
    expect(html).not.toContain('Create account');
  });

  it('carries the copy script under the response nonce, and no other script', () => {
    const html = renderHomePage(homeView(), NONCE);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${NONCE}">${TIME_ZONE_SCRIPT}${COPY_SCRIPT}</script>`);
  });
});
