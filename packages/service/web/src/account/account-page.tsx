import { ConnectAgent } from '../connect/connect-agent.tsx';
import { COPY_SCRIPT } from '../connect/copy-script.ts';
import { shippedLanguages } from '../i18n/languages.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { NOTIFICATIONS_PATH } from '../pwa/web-app.ts';
import { CsrfField, Notice, Sentence, SignOutForm, toDocument, When } from './parts.tsx';
import type { AccountView, AccountWorkspaceView } from './view.ts';

/** The header every signed-in account page shares: who is signed in, and "Sign out". */
export function AccountHeader({ email, signoutCsrf }: { email: string; signoutCsrf: string }) {
  return (
    <header class="account-header">
      <p class="muted">
        <Sentence
          id="account.header.signedInAs"
          elements={{
            email: (
              <strong>
                <Isolate text={email} />
              </strong>
            ),
          }}
        />
      </p>
      <SignOutForm csrf={signoutCsrf} />
    </header>
  );
}

function WorkspaceRow({ workspace, view }: { workspace: AccountWorkspaceView; view: AccountView }) {
  const m = useMessages();
  return (
    <li class="workspace">
      <span class="name">
        <Isolate text={workspace.name} />
      </span>{' '}
      <span class="muted">
        {workspace.role === 'owner' ? m.t('account.overview.role.owner') : m.t('account.overview.role.member')}
      </span>
      {view.invitesEnabled && workspace.role === 'owner' ? (
        <form method="post" action="/account/invites" class="inline">
          <CsrfField token={view.csrf.invite} />
          <input type="hidden" name="workspace_id" value={workspace.id} />
          <button
            type="submit"
            class="secondary"
            aria-label={m.t('account.overview.createInviteFor', { workspace: workspace.name })}
          >
            {m.t('account.overview.createInvite')}
          </button>
        </form>
      ) : null}
    </li>
  );
}

/**
 * The language Sess's pages and e-mails speak to this person: links like the footer's picker
 * (each language named in itself), saved to the account when one is followed.
 */
function LanguageChoice() {
  const m = useMessages();
  const href = m.languageHref;
  if (!href) return null;
  return (
    <>
      <h2 id="language-heading">{m.t('account.overview.language.heading')}</h2>
      <p class="hint" id="language-hint">
        {m.t('account.overview.language.hint')}
      </p>
      <ul class="nav-list" aria-labelledby="language-heading" aria-describedby="language-hint">
        {shippedLanguages().map((language) => (
          <li>
            <a
              class="button secondary"
              href={href(language.tag)}
              lang={language.tag}
              hreflang={language.tag}
              aria-current={language.tag === m.tag ? 'true' : undefined}
            >
              {language.name}
            </a>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The account overview: e-mail, workspaces, the ways to API keys and connected apps, and how to connect an agent. */
export function AccountPage({ view, nonce }: { view: AccountView; nonce: string }) {
  const m = useMessages();
  return (
    <Page title={m.t('account.overview.title')} nonce={nonce} script={COPY_SCRIPT}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>{m.t('account.overview.heading')}</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        <dl class="record">
          <div class="pair">
            <dt>{m.t('account.field.email')}</dt>
            <dd dir={textDir(view.email)}>{view.email}</dd>
          </div>
        </dl>
        <h2 id="workspaces-heading">{m.t('account.overview.workspaces')}</h2>
        {view.createdInvite ? (
          <div class="banner ok" role="status">
            <p>
              <Sentence
                id="account.overview.invite.created"
                elements={{
                  workspace: (
                    <strong>
                      <Isolate text={view.createdInvite.workspaceName} />
                    </strong>
                  ),
                  expires: <When date={view.createdInvite.expiresAt} />,
                }}
              />
            </p>
            <label for="invite-url">{m.t('account.overview.invite.label')}</label>
            <input id="invite-url" type="text" readonly value={view.createdInvite.url} class="secret" />
          </div>
        ) : null}
        <ul class="plain-list" aria-labelledby="workspaces-heading">
          {view.workspaces.map((workspace) => (
            <WorkspaceRow workspace={workspace} view={view} />
          ))}
        </ul>
        <h2 id="connections-heading">{m.t('account.overview.connections')}</h2>
        <ul class="nav-list" aria-labelledby="connections-heading">
          <li>
            <a class="button secondary" href={view.links.apiKeys}>
              {m.t('account.overview.link.apiKeys')}
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.passkeys}>
              {m.t('account.overview.link.passkeys')}
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.connectedApps}>
              {m.t('account.overview.link.connectedApps')}
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.assurance}>
              {m.t('account.overview.link.assurance')}
            </a>
          </li>
          <li>
            <a class="button secondary" href={view.links.review}>
              {m.t('account.overview.link.review')}
            </a>
          </li>
          <li>
            <a class="button secondary" href={NOTIFICATIONS_PATH}>
              {m.t('account.overview.link.notifications')}
            </a>
          </li>
          <li>
            <a class="button secondary" href="/account/webhooks">
              {m.t('account.overview.link.webhooks')}
            </a>
          </li>
        </ul>
        <LanguageChoice />
        <ConnectAgent view={view.connect} />
      </div>
    </Page>
  );
}

/** The account overview as an HTML document string. */
export function renderAccountPage(view: AccountView, nonce: string): string {
  return toDocument(<AccountPage view={view} nonce={nonce} />);
}
