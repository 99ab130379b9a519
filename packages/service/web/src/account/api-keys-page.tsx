import { CopyButton } from '../connect/copy-button.tsx';
import { COPY_SCRIPT } from '../connect/copy-script.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate, textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, ErrorSummary, errorId, Notice, Sentence, type SummaryItem, TextField, toDocument, When } from './parts.tsx';
import type { ApiKeysView, ApiKeyView } from './view.ts';

/** The new key's field (the Copy button names it; its status line is `<id>-status`). */
const NEW_KEY_ID = 'new-key';

/**
 * One key as a list item, like a device on the notifications page: its name and prefix, its
 * workspace, when it was made and last used, and Revoke. It wraps on a phone instead of
 * squeezing three table columns into 360 px.
 */
function KeyRow({ apiKey, csrf }: { apiKey: ApiKeyView; csrf: string }) {
  const m = useMessages();
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
          <Sentence
            id="account.keys.row.when"
            elements={{ created: <When date={apiKey.createdAt} />, lastUsed: <When date={apiKey.lastUsedAt} /> }}
          />
          {apiKey.revokedAt ? (
            <>
              {' · '}
              <Sentence id="account.keys.row.revoked" elements={{ revoked: <When date={apiKey.revokedAt} /> }} />
            </>
          ) : null}
        </p>
      </div>
      {apiKey.revokedAt ? null : (
        <form method="post" action={`/account/keys/${encodeURIComponent(apiKey.id)}/revoke`}>
          <CsrfField token={csrf} />
          <button
            type="submit"
            class="danger"
            aria-label={m.t('account.keys.revokeLabel', { name: apiKey.name, prefix: apiKey.prefix })}
          >
            {m.t('account.keys.revoke')}
          </button>
        </form>
      )}
    </li>
  );
}

/** API keys: make one (its value shown once), list them by prefix and last use, revoke. */
export function ApiKeysPage({ view, nonce }: { view: ApiKeysView; nonce: string }) {
  const m = useMessages();
  const single = view.workspaces.length === 1 ? view.workspaces[0] : undefined;
  const workspaceError = view.fieldErrors?.workspaceId;
  // With one workspace there is no picker to mark, so its problem is the form's.
  const formError = view.error ?? (single ? workspaceError : undefined);
  const summary: SummaryItem[] = [
    ...(formError ? [{ message: formError }] : []),
    ...(view.fieldErrors?.name ? [{ message: view.fieldErrors.name, field: 'key-name' }] : []),
    ...(workspaceError && !single ? [{ message: workspaceError, field: 'key-workspace' }] : []),
  ];
  const title = m.t('account.keys.title');
  return (
    <Page
      title={summary.length > 0 ? m.t('account.errors.pageTitle', { title }) : title}
      nonce={nonce}
      script={view.createdKey ? COPY_SCRIPT : undefined}
    >
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">{m.t('account.nav.back')}</a>
        </p>
        <h1>{m.t('account.keys.heading')}</h1>
        <p class="lead">{m.t('account.keys.lead')}</p>
        {view.notice ? <Notice message={view.notice} /> : null}
        <ErrorSummary id="keys-error" items={summary} />
        {view.createdKey ? (
          <div class="banner ok" role="status">
            <p>
              <Sentence
                id="account.keys.created"
                elements={{
                  name: (
                    <strong>
                      <Isolate text={view.createdKey.name} />
                    </strong>
                  ),
                }}
              />
            </p>
            <label for={NEW_KEY_ID}>{m.t('account.keys.newKeyLabel')}</label>
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
              <CopyButton target={NEW_KEY_ID} label={m.t('account.keys.copy')} />
            </div>
          </div>
        ) : null}
        {view.createdKey ? <p id={`${NEW_KEY_ID}-status`} class="muted copy-status" role="status" /> : null}
        <h2>{m.t('account.keys.createHeading')}</h2>
        <form method="post" action="/account/keys">
          <CsrfField token={view.csrf.create} />
          <TextField
            id="key-name"
            name="name"
            label={m.t('account.keys.name')}
            type="text"
            value={view.form?.name}
            autocomplete="off"
            hint={m.t('account.keys.nameHint')}
            error={view.fieldErrors?.name}
            maxlength={100}
          />
          {single ? (
            <input type="hidden" name="workspace_id" value={single.id} />
          ) : (
            <div class={workspaceError ? 'field invalid' : 'field'}>
              <label for="key-workspace">{m.t('account.field.workspace')}</label>
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
            <button type="submit">{m.t('account.keys.submit')}</button>
          </div>
        </form>
        <h2 id="keys-heading">{m.t('account.keys.listHeading')}</h2>
        {view.keys.length === 0 ? (
          <p class="muted">{m.t('account.keys.none')}</p>
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
