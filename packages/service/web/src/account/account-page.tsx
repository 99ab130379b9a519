import { ConnectAgent } from '../connect/connect-agent.tsx';
import { COPY_SCRIPT } from '../connect/copy-script.ts';
import { Isolate, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { NOTIFICATIONS_PATH } from '../pwa/web-app.ts';
import { CsrfField, formatWhen, Notice, SignOutForm, toDocument } from './parts.tsx';
import type { AccountView, AccountWorkspaceView } from './view.ts';

/** The header every signed-in account page shares: who is signed in, and "Sign out". */
export function AccountHeader({ email, signoutCsrf }: { email: string; signoutCsrf: string }) {
  return (
    <header class="account-header">
      <p class="muted">
        Signed in as{' '}
        <strong>
          <Isolate text={email} />
        </strong>
      </p>
      <SignOutForm csrf={signoutCsrf} />
    </header>
  );
}

function WorkspaceRow({ workspace, view }: { workspace: AccountWorkspaceView; view: AccountView }) {
  return (
    <li class="workspace">
      <span class="name">
        <Isolate text={workspace.name} />
      </span>{' '}
      <span class="muted">({workspace.role === 'owner' ? 'owner' : 'member'})</span>
      {view.invitesEnabled && workspace.role === 'owner' ? (
        <form method="post" action="/account/invites" class="inline">
          <CsrfField token={view.csrf.invite} />
          <input type="hidden" name="workspace_id" value={workspace.id} />
          <button type="submit" class="secondary" aria-label={`Create an invite link for ${workspace.name}`}>
            Create invite link
          </button>
        </form>
      ) : null}
    </li>
  );
}

/** The account overview: e-mail, workspaces, the ways to API keys and connected apps, and how to connect an agent. */
export function AccountPage({ view, nonce }: { view: AccountView; nonce: string }) {
  return (
    <Page title="Your account · Sess" nonce={nonce} script={COPY_SCRIPT}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>Your account</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        <dl class="record">
          <div class="pair">
            <dt>Email</dt>
            <dd dir={textDir(view.email)}>{view.email}</dd>
          </div>
        </dl>
        <h2 id="workspaces-heading">Workspaces</h2>
        {view.createdInvite ? (
          <div class="banner ok" role="status">
            <p>
              Invite link for{' '}
              <strong>
                <Isolate text={view.createdInvite.workspaceName} />
              </strong>
              . Copy it now: it is shown only once, works for one sign-up, and expires {formatWhen(view.createdInvite.expiresAt)}.
            </p>
            <label for="invite-url">Invite link</label>
            <input id="invite-url" type="text" readonly value={view.createdInvite.url} class="secret" />
          </div>
        ) : null}
        <ul class="plain-list" aria-labelledby="workspaces-heading">
          {view.workspaces.map((workspace) => (
            <WorkspaceRow workspace={workspace} view={view} />
          ))}
        </ul>
        <h2>Connections</h2>
        <ul class="nav-list">
          <li>
            <a class="button secondary" href={view.links.apiKeys}>
              API keys
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.passkeys}>
              Passkeys
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.connectedApps}>
              Connected apps
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.assurance}>
              Who may answer
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.review}>
              Interactions to review
            </a>
          </li>
          <li>
            <a class="button secondary" href={NOTIFICATIONS_PATH}>
              Notifications
            </a>
          </li>
          <li>
            <a class="button secondary" href="/account/webhooks">
              Webhooks
            </a>
          </li>
        </ul>
        <ConnectAgent view={view.connect} />
      </div>
    </Page>
  );
}

/** The account overview as an HTML document string. */
export function renderAccountPage(view: AccountView, nonce: string): string {
  return toDocument(<AccountPage view={view} nonce={nonce} />);
}
