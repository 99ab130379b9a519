import { AccountHeader } from '../account/account-page.tsx';
import { CsrfField, Notice, toDocument } from '../account/parts.tsx';
import { listOf } from '../connect/sentence.tsx';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate, isolateText, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { ClientName } from './consent-page.tsx';
import { type ConnectedAppsView, type ConnectedAppView, OAUTH_FORM_FIELDS } from './view.ts';

function ConnectedApp({ app, csrf, index }: { app: ConnectedAppView; csrf: string; index: number }) {
  const m = useMessages();
  const headingId = `app-${index}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>
        <ClientName client={app.client} />
      </h2>
      <dl class="record">
        <dt>{m.t('oauth.apps.workspace')}</dt>
        <dd dir={textDir(app.workspaceName)}>{app.workspaceName}</dd>
        <dt>{m.t('oauth.apps.redirects')}</dt>
        <dd>
          {listOf(
            m,
            app.redirectHosts.map((host) => <Isolate text={host} />),
          )}
        </dd>
        <dt>{m.t('oauth.apps.can')}</dt>
        <dd>{app.permissions.join(' ')}</dd>
        <dt>{m.t('oauth.apps.connected')}</dt>
        <dd>{m.dateTime(app.connectedAt)}</dd>
        <dt>{m.t('oauth.apps.lastUsed')}</dt>
        <dd>{app.lastUsedAt ? m.dateTime(app.lastUsedAt) : m.t('oauth.apps.never')}</dd>
      </dl>
      <form method="post" action="/account/apps/disconnect">
        <CsrfField token={csrf} />
        <input type="hidden" name={OAUTH_FORM_FIELDS.app} value={app.app} />
        <input type="hidden" name={OAUTH_FORM_FIELDS.workspace} value={app.workspaceId} />
        <button
          type="submit"
          class="danger"
          aria-label={m.t('oauth.apps.disconnectLabel', {
            app: isolateText(app.client.name),
            workspace: isolateText(app.workspaceName),
          })}
        >
          {m.t('oauth.apps.disconnect')}
        </button>
      </form>
    </section>
  );
}

/** The apps connected to the person's account, each with "Disconnect". */
export function ConnectedAppsPage({ view, nonce }: { view: ConnectedAppsView; nonce: string }) {
  const m = useMessages();
  return (
    <Page title={`${m.t('oauth.apps.title')} · Sess`} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>{m.t('oauth.apps.title')}</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        <p class="lead">
          {view.apps.length === 0 ? m.t('oauth.apps.none') : m.t('oauth.apps.some', { count: view.apps.length })}
        </p>
        {view.apps.map((app, index) => (
          <ConnectedApp app={app} csrf={view.csrf.disconnect} index={index} />
        ))}
        <p>
          <a href="/account">{m.t('oauth.apps.back')}</a>
        </p>
      </div>
    </Page>
  );
}

/** The connected-apps page as an HTML document string. */
export function renderConnectedAppsPage(view: ConnectedAppsView, nonce: string): string {
  return toDocument(<ConnectedAppsPage view={view} nonce={nonce} />);
}
