import { AccountHeader } from '../account/account-page.tsx';
import { CsrfField, toDocument } from '../account/parts.tsx';
import { Isolate, isolateText } from '../isolate.tsx';
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

/** Where Allow or Deny sends the person, with a warning when it is a program on this computer. */
function RedirectNote({ redirect }: { redirect: ConsentView['redirect'] }) {
  if (redirect.kind === 'loopback') {
    return (
      <div class="banner warn" role="note">
        <p>
          It sends you back to this computer (<Isolate text={redirect.host} />
          ). Allow only if you just started connecting from an app on this computer.
        </p>
      </div>
    );
  }
  return (
    <p>
      It sends you back to <Isolate text={redirect.host} />
      {redirect.kind === 'app' ? ' (an app on this device)' : null}.
    </p>
  );
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
        <p class="permissions-intro">It will be able to:</p>
        <ul class="permissions">
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
              Allow
            </button>
            <button type="submit" name={OAUTH_FORM_FIELDS.decision} value="deny" class="secondary">
              Deny
            </button>
          </div>
        </form>
        {view.client.verified ? null : (
          <p class="muted consent-after">
            This app chose its own name, "<Isolate text={view.client.name} />
            ", when it registered; Sess has not checked it.
          </p>
        )}
        <p class="muted consent-after">You can disconnect it at any time under Account → Connected apps.</p>
      </div>
    </Page>
  );
}

/** The consent page as an HTML document string. */
export function renderConsentPage(view: ConsentView, nonce: string): string {
  return toDocument(<ConsentPage view={view} nonce={nonce} />);
}
