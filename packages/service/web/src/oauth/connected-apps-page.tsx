import { AccountHeader } from '../account/account-page.tsx';
import { CsrfField, formatWhen, Notice, toDocument } from '../account/parts.tsx';
import { Isolate, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { ClientName } from './consent-page.tsx';
import { type ConnectedAppsView, type ConnectedAppView, OAUTH_FORM_FIELDS } from './view.ts';

function ConnectedApp({ app, csrf, index }: { app: ConnectedAppView; csrf: string; index: number }) {
  const headingId = `app-${index}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>
        <ClientName client={app.client} />
      </h2>
      <dl class="record">
        <dt>Workspace</dt>
        <dd dir={textDir(app.workspaceName)}>{app.workspaceName}</dd>
        <dt>Sends you back to</dt>
        <dd>
          {app.redirectHosts.map((host, i) => (
            <>
              {i > 0 ? ', ' : null}
              <Isolate text={host} />
            </>
          ))}
        </dd>
        <dt>Can</dt>
        <dd>{app.permissions.join(' ')}</dd>
        <dt>Connected</dt>
        <dd>{formatWhen(app.connectedAt)}</dd>
        <dt>Last used</dt>
        <dd>{formatWhen(app.lastUsedAt)}</dd>
      </dl>
      <form method="post" action="/account/apps/disconnect">
        <CsrfField token={csrf} />
        <input type="hidden" name={OAUTH_FORM_FIELDS.app} value={app.app} />
        <input type="hidden" name={OAUTH_FORM_FIELDS.workspace} value={app.workspaceId} />
        <button type="submit" class="danger" aria-label={`Disconnect ${app.client.name} from ${app.workspaceName}`}>
          Disconnect
        </button>
      </form>
    </section>
  );
}

/** The apps connected to the person's account, each with "Disconnect". */
export function ConnectedAppsPage({ view, nonce }: { view: ConnectedAppsView; nonce: string }) {
  return (
    <Page title="Connected apps · Sess" nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>Connected apps</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.apps.length === 0 ? (
          <p class="lead">No apps are connected. When you choose Allow in an app such as Claude or Cursor, it shows up here.</p>
        ) : (
          <p class="lead">These apps can use Sess as you. Disconnect one and it stops working at once.</p>
        )}
        {view.apps.map((app, index) => (
          <ConnectedApp app={app} csrf={view.csrf.disconnect} index={index} />
        ))}
        <p>
          <a href="/account">Back to your account</a>
        </p>
      </div>
    </Page>
  );
}

/** The connected-apps page as an HTML document string. */
export function renderConnectedAppsPage(view: ConnectedAppsView, nonce: string): string {
  return toDocument(<ConnectedAppsPage view={view} nonce={nonce} />);
}
