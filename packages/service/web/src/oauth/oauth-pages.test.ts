import { describe, expect, it } from 'vitest';
import { escaped, expectIsolated, spoof } from '../bidi-fixtures.ts';
import { messagesFor } from '../i18n/messages.ts';
import { inLanguage } from '../i18n/render-scope.ts';
import { renderConnectedAppsPage } from './connected-apps-page.tsx';
import { renderConsentPage } from './consent-page.tsx';
import { renderOAuthErrorPage } from './error-page.tsx';
import type { ConsentView, RedirectView } from './view.ts';

const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';
const AT = new Date('2030-01-07T09:00:00Z');

function consentView(extra: Partial<ConsentView> = {}): ConsentView {
  return {
    email: spoof('email'),
    client: { name: spoof('client'), verified: false, identity: null },
    redirect: { host: spoof('redirect-host'), kind: 'web' },
    permissions: ['Send you forms and questions'],
    workspaces: [{ id: 'ws_1', name: spoof('workspace') }],
    form: { action: '/oauth/authorize', request: 'q', csrf: 'c' },
    signoutCsrf: 's',
    ...extra,
  };
}

describe('bidi isolation on the OAuth pages: what an app calls itself cannot reorder Sess’s words', () => {
  it('consent: the app’s name (heading, warning, record, tab title), the redirect host, e-mail and workspace', () => {
    const html = renderConsentPage(consentView(), NONCE);
    expectIsolated(html, [spoof('client'), spoof('redirect-host'), spoof('email'), spoof('workspace')]);
    expect(html).toContain(
      `<h1>Allow <strong><bdi>${escaped(spoof('client'))}</bdi></strong> <span class="muted">(unverified name)`,
    );
    expect(html).toContain(`<title>Allow \u2068${escaped(spoof('client'))}\u2069 to use Sess? · Sess</title>`);
  });

  it.each([
    ['app', 'It sends you back to <bdi>{host}</bdi> (an app on this device).'],
    ['web', 'It sends you back to <bdi>{host}</bdi>.'],
    ['loopback', 'It sends you back to this computer (<bdi>{host}</bdi>). Allow only'],
  ] as const)('consent: a redirect host of kind %s, and its own words around it', (kind, sentence) => {
    const redirect: RedirectView = { host: spoof(`${kind}-host`), kind };
    const html = renderConsentPage(consentView({ redirect }), NONCE);
    expectIsolated(html, [spoof(`${kind}-host`)]);
    expect(html.replace(/\s+/g, ' ')).toContain(sentence.replace('{host}', escaped(spoof(`${kind}-host`))));
  });

  it('consent: a self-registered app is labelled "(unverified name)" once, in the heading, and the label explained below Allow', () => {
    const html = renderConsentPage(consentView({ client: { name: 'Claude', verified: false, identity: null } }), NONCE);
    expect(html.match(/\(unverified name\)/g)).toHaveLength(1);
    expect(html).toMatch(
      /<h1>Allow <strong>Claude<\/strong> <span class="muted">\(unverified name\)<\/span> to use Sess\?<\/h1>/,
    );
    const allow = html.indexOf('value="allow"');
    expect(allow).toBeGreaterThan(0);
    expect(html.indexOf('chose its own name')).toBeGreaterThan(allow);
    // The e-mail is said once, in the header.
    expect(html.split(escaped(spoof('email'))).length - 1).toBe(1);
  });

  it('consent: a verified app gets no "unverified" wording at all', () => {
    const html = renderConsentPage(consentView({ client: { name: 'Claude', verified: true, identity: 'claude.ai' } }), NONCE);
    expect(html).not.toContain('unverified');
    expect(html).not.toContain('chose its own name');
  });

  it('consent: a verified app’s domain, and the workspace picker', () => {
    const html = renderConsentPage(
      consentView({
        client: { name: spoof('verified-client'), verified: true, identity: spoof('identity') },
        workspaces: [
          { id: 'ws_1', name: spoof('workspace-1') },
          { id: 'ws_2', name: spoof('workspace-2') },
        ],
      }),
      NONCE,
    );
    expectIsolated(html, [spoof('verified-client'), spoof('identity'), spoof('workspace-1'), spoof('workspace-2')]);
    expect(html).toContain(`<span class="muted">(<bdi>${escaped(spoof('identity'))}</bdi>)</span>`);
  });

  it('connected apps: each app’s name and domain, redirect hosts and workspace', () => {
    const html = renderConnectedAppsPage(
      {
        email: spoof('email'),
        apps: [
          {
            app: 'cimd:https://app.example/client.json',
            workspaceId: 'ws_1',
            client: { name: spoof('app'), verified: true, identity: spoof('app-identity') },
            redirectHosts: [spoof('app-host'), spoof('other-host')],
            workspaceName: spoof('app-workspace'),
            permissions: ['Send you forms and questions'],
            connectedAt: AT,
            lastUsedAt: null,
          },
        ],
        csrf: { disconnect: 'd', signout: 's' },
      },
      NONCE,
    );
    expectIsolated(html, [
      spoof('email'),
      spoof('app'),
      spoof('app-identity'),
      spoof('app-host'),
      spoof('other-host'),
      spoof('app-workspace'),
    ]);
    // Disconnect names the row by app and workspace: the server revokes every grant they stand for.
    expect(html).toContain('<input type="hidden" name="app" value="cimd:https://app.example/client.json"/>');
    expect(html).toContain('<input type="hidden" name="workspace_id" value="ws_1"/>');
  });

  it('the error page: a message that echoes what an app sent', () => {
    const html = renderOAuthErrorPage(
      { title: 'This app cannot connect', message: spoof('echoed'), detail: spoof('detail') },
      NONCE,
    );
    expectIsolated(html, [spoof('echoed'), spoof('detail')]);
  });
});

describe('the OAuth pages in the page’s language', () => {
  it('consent in German: the question around the app’s name, Allow / Deny, the redirect sentence', () => {
    const view = consentView({ client: { name: 'Claude', verified: false, identity: null } });
    const html = inLanguage(messagesFor('de'), () => renderConsentPage(view, NONCE));
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<strong>Claude</strong> <span class="muted">(Name nicht geprüft)</span> Zugriff auf Sess erlauben?');
    expect(html).toContain('>Erlauben</button>');
    expect(html).toContain('>Ablehnen</button>');
    expect(html).toContain('Danach geht es zurück zu');
    expect(html).not.toContain('Allow');
  });

  it('connected apps in Slovenian: the count picks its plural form, the dates are written in Slovenian', () => {
    const app = {
      app: 'a',
      workspaceId: 'ws_1',
      client: { name: 'Zed', verified: false, identity: null },
      redirectHosts: ['zed.example', 'zed.test'],
      workspaceName: 'Ekipa',
      permissions: ['x'],
      connectedAt: AT,
      lastUsedAt: null,
    };
    const html = inLanguage(messagesFor('sl'), () =>
      renderConnectedAppsPage(
        { email: 'a@b.c', apps: [app, { ...app, app: 'b' }], csrf: { disconnect: 'd', signout: 's' } },
        NONCE,
      ),
    );
    expect(html).toContain('Ti 2 aplikaciji lahko uporabljata Sess v vašem imenu.');
    expect(html).toContain('zed.example in zed.test');
    expect(html).toContain(messagesFor('sl').dateTime(AT));
    expect(html).toContain('Nikoli');
  });
});
