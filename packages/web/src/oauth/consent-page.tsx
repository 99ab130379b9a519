import { AccountHeader } from '../account/account-page.tsx';
import { CsrfField, toDocument } from '../account/parts.tsx';
import { Isolate, isolateText, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { type ClientView, type ConsentView, OAUTH_FORM_FIELDS } from './view.ts';

/** The app's name with what backs it: its domain, or a plain "unverified" label. */
export function ClientName({ client }: { client: ClientView }) {
  return (
    <>
      <strong>
        <Isolate text={client.name} />
      </strong>{' '}
      <span class="muted">
        {client.verified && client.identity ? (
          <>
            (<Isolate text={client.identity} />)
          </>
        ) : (
          '(unverified name)'
        )}
      </span>
    </>
  );
}

function WorkspaceChoice({ view }: { view: ConsentView }) {
  const [first] = view.workspaces;
  if (view.workspaces.length === 1 && first) {
    return (
      <>
        <input type="hidden" name={OAUTH_FORM_FIELDS.workspace} value={first.id} />
        <p>
          In workspace{' '}
          <strong>
            <Isolate text={first.name} />
          </strong>
          .
        </p>
      </>
    );
  }
  const selected = view.selectedWorkspaceId ?? first?.id;
  return (
    <fieldset aria-describedby={view.error ? 'consent-error' : undefined}>
      <legend>Workspace</legend>
      <p class="hint">The app works in the workspace you choose, and only in it.</p>
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

/**
 * The consent page: who asks (with an "unverified name" label for self-registered apps), where
 * the answer goes (with a warning for this-computer redirects), what the app may do, the
 * workspace, and Allow / Deny. The form carries the authorization request and a CSRF token
 * bound to this browser session and this exact request.
 */
export function ConsentPage({ view, nonce }: { view: ConsentView; nonce: string }) {
  return (
    <Page title={`Allow ${isolateText(view.client.name)} to use Sess? · Sess`} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.signoutCsrf} />
      <div class="card">
        <h1>
          Allow <ClientName client={view.client} /> to use Sess?
        </h1>
        {view.error ? (
          <div class="banner error" role="alert" id="consent-error">
            <p>{view.error}</p>
          </div>
        ) : null}
        {view.client.verified ? null : (
          <div class="banner warn" role="note">
            <p>
              This app named itself "<Isolate text={view.client.name} />" when it registered. Sess has not verified that name.
            </p>
          </div>
        )}
        <dl class="record">
          <dt>App</dt>
          <dd>
            <ClientName client={view.client} />
          </dd>
          <dt>Sends you back to</dt>
          <dd>
            <Isolate text={view.redirect.host} />
            {view.redirect.kind === 'app' ? ' (an app on this device)' : null}
          </dd>
          <dt>Signed in as</dt>
          <dd dir={textDir(view.email)}>{view.email}</dd>
        </dl>
        {view.redirect.kind === 'loopback' ? (
          <div class="banner warn" role="note">
            <p>
              This app receives the answer on this computer (<Isolate text={view.redirect.host} />
              ). Allow only if you just started connecting from an app on this computer.
            </p>
          </div>
        ) : null}
        <h2>It will be able to</h2>
        <ul>
          {view.permissions.map((permission) => (
            <li>{permission}</li>
          ))}
        </ul>
        <form method="post" action={view.form.action}>
          <CsrfField token={view.form.csrf} />
          <input type="hidden" name={OAUTH_FORM_FIELDS.request} value={view.form.request} />
          <WorkspaceChoice view={view} />
          <p class="muted">You can disconnect it at any time under Account → Connected apps.</p>
          <div class="actions">
            <button type="submit" name={OAUTH_FORM_FIELDS.decision} value="allow">
              Allow
            </button>
            <button type="submit" name={OAUTH_FORM_FIELDS.decision} value="deny" class="secondary">
              Deny
            </button>
          </div>
        </form>
      </div>
    </Page>
  );
}

/** The consent page as an HTML document string. */
export function renderConsentPage(view: ConsentView, nonce: string): string {
  return toDocument(<ConsentPage view={view} nonce={nonce} />);
}
