import { AccountHeader } from '../account/account-page.tsx';
import { CsrfField, toDocument } from '../account/parts.tsx';
import { sentence } from '../connect/sentence.tsx';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate, isolateText } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { type ClientView, type ConsentView, OAUTH_FORM_FIELDS } from './view.ts';

/** The app's name with what backs it: its domain, or a plain "unverified" label. */
export function ClientName({ client }: { client: ClientView }) {
  const m = useMessages();
  return (
    <>
      <strong>
        <Isolate text={client.name} />
      </strong>{' '}
      <span class="muted">
        {client.verified && client.identity
          ? sentence(m, 'oauth.client.identity', { host: <Isolate text={client.identity} /> })
          : m.t('oauth.client.unverified')}
      </span>
    </>
  );
}

function WorkspaceChoice({ view }: { view: ConsentView }) {
  const m = useMessages();
  const [first] = view.workspaces;
  if (view.workspaces.length === 1 && first) {
    return (
      <>
        <input type="hidden" name={OAUTH_FORM_FIELDS.workspace} value={first.id} />
        <p>
          {sentence(m, 'oauth.consent.inWorkspace', {
            workspace: (
              <strong>
                <Isolate text={first.name} />
              </strong>
            ),
          })}
        </p>
      </>
    );
  }
  const selected = view.selectedWorkspaceId ?? first?.id;
  return (
    <fieldset aria-describedby={view.error ? 'consent-error workspace-hint' : 'workspace-hint'}>
      <legend>{m.t('oauth.consent.workspace')}</legend>
      <p class="hint" id="workspace-hint">
        {m.t('oauth.consent.workspaceHint')}
      </p>
      {view.workspaces.map((workspace) => (
        <label class="choice">
          <input
            type="radio"
            name={OAUTH_FORM_FIELDS.workspace}
            value={workspace.id}
            checked={workspace.id === selected}
            required
          />
          <span>
            <Isolate text={workspace.name} />
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** Where Allow or Deny sends the person, with a warning when it is a program on this computer. */
function RedirectNote({ redirect }: { redirect: ConsentView['redirect'] }) {
  const m = useMessages();
  const host = <Isolate text={redirect.host} />;
  if (redirect.kind === 'loopback') {
    return (
      <div class="banner warn" role="note">
        <p>{sentence(m, 'oauth.consent.redirectLoopback', { host })}</p>
      </div>
    );
  }
  return <p>{sentence(m, 'oauth.consent.redirect', { host }, { kind: redirect.kind })}</p>;
}

/**
 * The consent page: who asks, what it may do, where the answer goes, the workspace, and Allow /
 * Deny — kept short, so that on a phone (390×844) Allow is on screen without scrolling. Each fact
 * is said once: the app's name and its "(unverified name)" label only in the heading (the
 * explanation of the label sits below the buttons), the signed-in e-mail only in the header.
 * The form carries the authorization request and a CSRF token bound to this browser session and
 * this exact request.
 */
export function ConsentPage({ view, nonce }: { view: ConsentView; nonce: string }) {
  const m = useMessages();
  return (
    <Page title={`${m.t('oauth.consent.title', { app: isolateText(view.client.name) })} · Sess`} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.signoutCsrf} />
      <div class="card">
        <h1>{sentence(m, 'oauth.consent.title', { app: <ClientName client={view.client} /> })}</h1>
        {view.error ? (
          <div class="banner error" role="alert" id="consent-error">
            <p>{view.error}</p>
          </div>
        ) : null}
        <p class="permissions-intro" id="permissions-intro">
          {m.t('oauth.consent.canDo')}
        </p>
        <ul class="permissions" aria-labelledby="permissions-intro">
          {view.permissions.map((permission) => (
            <li>{permission}</li>
          ))}
        </ul>
        <RedirectNote redirect={view.redirect} />
        <form method="post" action={view.form.action}>
          <CsrfField token={view.form.csrf} />
          <input type="hidden" name={OAUTH_FORM_FIELDS.request} value={view.form.request} />
          <WorkspaceChoice view={view} />
          <div class="actions side-by-side">
            <button type="submit" name={OAUTH_FORM_FIELDS.decision} value="allow">
              {m.t('oauth.consent.allow')}
            </button>
            <button type="submit" name={OAUTH_FORM_FIELDS.decision} value="deny" class="secondary">
              {m.t('oauth.consent.deny')}
            </button>
          </div>
        </form>
        {view.client.verified ? null : (
          <p class="muted consent-after">
            {sentence(m, 'oauth.consent.unverifiedNote', { app: <Isolate text={view.client.name} /> })}
          </p>
        )}
        <p class="muted consent-after">{m.t('oauth.consent.disconnectLater')}</p>
      </div>
    </Page>
  );
}

/** The consent page as an HTML document string. */
export function renderConsentPage(view: ConsentView, nonce: string): string {
  return toDocument(<ConsentPage view={view} nonce={nonce} />);
}
