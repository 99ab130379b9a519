import { Isolate, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, errorId, FormError, formatWhen, Notice, TextField, toDocument } from './parts.tsx';
import type { ApiKeysView, ApiKeyView } from './view.ts';

function KeyRow({ apiKey, csrf }: { apiKey: ApiKeyView; csrf: string }) {
  return (
    <tr>
      <td>
        <strong>
          <Isolate text={apiKey.name} />
        </strong>
        <br />
        <code>{apiKey.prefix}…</code>
        <br />
        <span class="muted">
          <Isolate text={apiKey.workspaceName} />
        </span>
      </td>
      <td>
        <span class="muted">Created</span> {formatWhen(apiKey.createdAt)}
        <br />
        <span class="muted">Last used</span> {formatWhen(apiKey.lastUsedAt)}
      </td>
      <td>
        {apiKey.revokedAt ? (
          <span class="muted">Revoked {formatWhen(apiKey.revokedAt)}</span>
        ) : (
          <form method="post" action={`/account/keys/${encodeURIComponent(apiKey.id)}/revoke`}>
            <CsrfField token={csrf} />
            <button type="submit" class="danger" aria-label={`Revoke ${apiKey.name} (${apiKey.prefix})`}>
              Revoke
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

/** API keys: make one (its value shown once), list them by prefix and last use, revoke. */
export function ApiKeysPage({ view, nonce }: { view: ApiKeysView; nonce: string }) {
  const single = view.workspaces.length === 1 ? view.workspaces[0] : undefined;
  const workspaceError = view.fieldErrors?.workspaceId;
  // With one workspace there is no picker to mark, so its problem is the form's.
  const formError = view.error ?? (single ? workspaceError : undefined);
  return (
    <Page title={view.error || view.fieldErrors ? 'Error: API keys · Sess' : 'API keys · Sess'} nonce={nonce}>
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
            <label for="new-key">New API key</label>
            <input id="new-key" type="text" readonly value={view.createdKey.key} class="secret" />
          </div>
        ) : null}
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
          <table aria-labelledby="keys-heading">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Use</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {view.keys.map((apiKey) => (
                <KeyRow apiKey={apiKey} csrf={view.csrf.revoke} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Page>
  );
}

/** The API keys page as an HTML document string. */
export function renderApiKeysPage(view: ApiKeysView, nonce: string): string {
  return toDocument(<ApiKeysPage view={view} nonce={nonce} />);
}
