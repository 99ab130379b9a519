import { COPY_SCRIPT } from '../connect/copy-script.ts';
import { Isolate, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, errorId, FormError, formatWhen, Notice, TextField, toDocument } from './parts.tsx';
import type { ApiKeysView, ApiKeyView } from './view.ts';

/** The new key's field (the Copy button names it; its status line is `<id>-status`). */
const NEW_KEY_ID = 'new-key';

/**
 * One key as a list item, like a device on the notifications page: its name and prefix, its
 * workspace, when it was made and last used, and Revoke. It wraps on a phone instead of
 * squeezing three table columns into 360 px.
 */
function KeyRow({ apiKey, csrf }: { apiKey: ApiKeyView; csrf: string }) {
  return (
    <li class="api-key">
      <div>
        <span class="name">
          <Isolate text={apiKey.name} />
        </span>{' '}
        <code class="key-prefix">{apiKey.prefix}…</code>
        <p class="muted key-detail">
          <Isolate text={apiKey.workspaceName} />
        </p>
        <p class="muted key-detail">
          Created {formatWhen(apiKey.createdAt)} · Last used {formatWhen(apiKey.lastUsedAt)}
          {apiKey.revokedAt ? ` · Revoked ${formatWhen(apiKey.revokedAt)}` : ''}
        </p>
      </div>
      {apiKey.revokedAt ? null : (
        <form method="post" action={`/account/keys/${encodeURIComponent(apiKey.id)}/revoke`}>
          <CsrfField token={csrf} />
          <button type="submit" class="danger" aria-label={`Revoke ${apiKey.name} (${apiKey.prefix})`}>
            Revoke
          </button>
        </form>
      )}
    </li>
  );
}

/** API keys: make one (its value shown once), list them by prefix and last use, revoke. */
export function ApiKeysPage({ view, nonce }: { view: ApiKeysView; nonce: string }) {
  const single = view.workspaces.length === 1 ? view.workspaces[0] : undefined;
  const workspaceError = view.fieldErrors?.workspaceId;
  // With one workspace there is no picker to mark, so its problem is the form's.
  const formError = view.error ?? (single ? workspaceError : undefined);
  return (
    <Page
      title={view.error || view.fieldErrors ? 'Error: API keys · Sess' : 'API keys · Sess'}
      nonce={nonce}
      script={view.createdKey ? COPY_SCRIPT : undefined}
    >
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">← Your account</a>
        </p>
        <h1>API keys</h1>
        <p class="lead">A key lets a program (such as the local Sess MCP server) use your workspace through the API.</p>
        {view.notice ? <Notice message={view.notice} /> : null}
        {formError ? <FormError id="keys-error" message={formError} /> : null}
        {view.createdKey ? (
          <div class="banner ok" role="status">
            <p>
              Your new key{' '}
              <strong>
                <Isolate text={view.createdKey.name} />
              </strong>
              . Copy it now: it is shown only this once.
            </p>
            <label for={NEW_KEY_ID}>New API key</label>
            {/* A read-only field: selectable and whole without JavaScript, wrapping at any width. */}
            <textarea
              id={NEW_KEY_ID}
              class="secret key-value"
              readonly
              rows={2}
              spellcheck={false}
              autocapitalize="none"
              autocomplete="off"
            >
              {view.createdKey.key}
            </textarea>
            <div class="actions">
              <button type="button" class="secondary copy" data-copy={NEW_KEY_ID} hidden>
                Copy key
              </button>
            </div>
          </div>
        ) : null}
        {view.createdKey ? <p id={`${NEW_KEY_ID}-status`} class="muted copy-status" role="status" /> : null}
        <h2>Create a key</h2>
        <form method="post" action="/account/keys">
          <CsrfField token={view.csrf.create} />
          <TextField
            id="key-name"
            name="name"
            label="Key name"
            type="text"
            value={view.form?.name}
            autocomplete="off"
            hint="So you can tell your keys apart, e.g. “laptop”."
            error={view.fieldErrors?.name}
            maxlength={100}
          />
          {single ? (
            <input type="hidden" name="workspace_id" value={single.id} />
          ) : (
            <div class={workspaceError ? 'field invalid' : 'field'}>
              <label for="key-workspace">Workspace</label>
              {workspaceError ? (
                <p class="error" id={errorId('key-workspace')}>
                  {workspaceError}
                </p>
              ) : null}
              <select
                id="key-workspace"
                name="workspace_id"
                aria-invalid={workspaceError ? 'true' : undefined}
                aria-describedby={workspaceError ? errorId('key-workspace') : undefined}
              >
                {view.workspaces.map((workspace) => (
                  <option value={workspace.id} selected={view.form?.workspaceId === workspace.id} dir={textDir(workspace.name)}>
                    {workspace.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div class="actions">
            <button type="submit">Create key</button>
          </div>
        </form>
        <h2 id="keys-heading">Your keys</h2>
        {view.keys.length === 0 ? (
          <p class="muted">No keys yet.</p>
        ) : (
          <ul class="plain-list" aria-labelledby="keys-heading">
            {view.keys.map((apiKey) => (
              <KeyRow apiKey={apiKey} csrf={view.csrf.revoke} />
            ))}
          </ul>
        )}
      </div>
    </Page>
  );
}

/** The API keys page as an HTML document string. */
export function renderApiKeysPage(view: ApiKeysView, nonce: string): string {
  return toDocument(<ApiKeysPage view={view} nonce={nonce} />);
}
