import { describe, expect, it } from 'vitest';
import { escaped, expectIsolated, spoof } from '../bidi-fixtures.ts';
import { buildConnectView } from '../connect/connect-view.ts';
import { renderAccountPage } from './account-page.tsx';
import { renderApiKeysPage } from './api-keys-page.tsx';
import { renderReviewPage } from './review-page.tsx';

const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';
const AT = new Date('2030-01-07T09:00:00Z');
const links = {
  apiKeys: '/account/keys',
  connectedApps: '/account/apps',
  review: '/account/interactions',
  assurance: '/account/assurance',
  passkeys: '/account/passkeys',
};

describe('bidi isolation on the account pages: names people chose cannot reorder Sess’s words', () => {
  it('account: the e-mail, each workspace name and the invited workspace', () => {
    const html = renderAccountPage(
      {
        email: spoof('email'),
        workspaces: [
          { id: 'ws_1', name: spoof('workspace'), role: 'owner' },
          { id: 'ws_2', name: spoof('other-workspace'), role: 'member' },
        ],
        csrf: { signout: 's', invite: 'i' },
        createdInvite: { workspaceName: spoof('invite-workspace'), url: 'https://sess.test/signup?invite=x', expiresAt: AT },
        invitesEnabled: true,
        links,
        connect: buildConnectView('https://sess.test'),
      },
      NONCE,
    );
    expectIsolated(html, [spoof('email'), spoof('workspace'), spoof('other-workspace'), spoof('invite-workspace')]);
    // "(owner)" follows the name's isolate, so an override in the name cannot turn it around.
    expect(html).toContain(
      `<span class="name"><bdi>${escaped(spoof('workspace'))}</bdi></span> <span class="muted">(owner)</span>`,
    );
  });

  it('API keys: key names (listed, just made, typed), their workspaces and the workspace picker', () => {
    const html = renderApiKeysPage(
      {
        email: spoof('email'),
        workspaces: [
          { id: 'ws_1', name: spoof('workspace-1'), role: 'owner' },
          { id: 'ws_2', name: spoof('workspace-2'), role: 'member' },
        ],
        keys: [
          {
            id: 'key_1',
            name: spoof('key'),
            prefix: 'sess_abc',
            workspaceName: spoof('key-workspace'),
            createdAt: AT,
            lastUsedAt: null,
            revokedAt: null,
          },
        ],
        csrf: { create: 'c', revoke: 'r', signout: 's' },
        createdKey: { name: spoof('new-key'), key: 'sess_secret', prefix: 'sess_sec' },
        form: { name: spoof('typed-key-name') },
        fieldErrors: { name: 'Use at most 100 characters.' },
      },
      NONCE,
    );
    expectIsolated(html, [
      spoof('email'),
      spoof('workspace-1'),
      spoof('workspace-2'),
      spoof('key'),
      spoof('key-workspace'),
      spoof('new-key'),
      spoof('typed-key-name'),
    ]);
    expect(html).toMatch(/<input id="key-name" name="name" type="text" [^>]*dir="auto"/);
  });

  it('review: each interaction’s title, workspace and API key', () => {
    const html = renderReviewPage(
      {
        email: spoof('email'),
        items: [
          {
            handle: 'hdl_1',
            title: spoof('interaction'),
            workspaceName: spoof('review-workspace'),
            state: 'blocked',
            explanation: 'The agent could not carry on with this interaction.',
            apiKey: { name: spoof('review-key') },
            createdAt: AT,
            updatedAt: AT,
          },
        ],
        csrf: { retire: 'r', signout: 's' },
      },
      NONCE,
    );
    expectIsolated(html, [spoof('email'), spoof('interaction'), spoof('review-workspace'), spoof('review-key')]);
    expect(html).toContain(`<h2 id="item-hdl_1" dir="auto">${escaped(spoof('interaction'))}</h2>`);
  });
});
