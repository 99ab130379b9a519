import { useMessages } from '../i18n/render-scope.ts';
import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, ErrorSummary, Notice, Sentence, toDocument, When } from './parts.tsx';
import { PASSKEY_SCRIPT, passkeyScriptMessages } from './passkey-script.ts';
import { PASSKEY_PATHS, type PasskeysView, type PasskeyView } from './view.ts';

/** One passkey: its name, when it was added and last used, Rename (folded) and Remove. */
function PasskeyRow({ passkey, view }: { passkey: PasskeyView; view: PasskeysView }) {
  const base = `${PASSKEY_PATHS.page}/${encodeURIComponent(passkey.id)}`;
  const m = useMessages();
  const fieldId = `rename-${passkey.id}`;
  return (
    <li class="device passkey">
      <div>
        <span class="name">
          <Isolate text={passkey.name} />
        </span>
        <p class="muted device-when">
          <Sentence
            id="account.passkeys.row.when"
            elements={{ added: <When date={passkey.createdAt} />, lastUsed: <When date={passkey.lastUsedAt} /> }}
          />
        </p>
      </div>
      <form method="post" action={`${base}/remove`}>
        <CsrfField token={view.csrf.remove} />
        <button type="submit" class="danger" aria-label={m.t('account.passkeys.removeLabel', { name: passkey.name })}>
          {m.t('account.passkeys.remove')}
        </button>
      </form>
      <details>
        <summary>{m.t('account.passkeys.rename')}</summary>
        <form method="post" action={`${base}/rename`}>
          <CsrfField token={view.csrf.rename} />
          <div class="field">
            <label for={fieldId}>{m.t('account.passkeys.newName')}</label>
            <input
              id={fieldId}
              name="name"
              type="text"
              value={passkey.name}
              maxlength={80}
              required
              autocomplete="off"
              dir="auto"
            />
          </div>
          <div class="actions">
            <button type="submit" class="secondary" aria-label={m.t('account.passkeys.saveNameLabel', { name: passkey.name })}>
              {m.t('account.passkeys.saveName')}
            </button>
          </div>
        </form>
      </details>
    </li>
  );
}

/**
 * `/account/passkeys`: add a passkey (a name, then the device's own prompt; needs JavaScript),
 * the person's passkeys with when each was added and last used, rename and remove.
 */
export function PasskeysPage({ view, nonce }: { view: PasskeysView; nonce: string }) {
  const m = useMessages();
  const title = m.t('account.passkeys.title');
  return (
    <Page title={view.error ? m.t('account.errors.pageTitle', { title }) : title} nonce={nonce} script={PASSKEY_SCRIPT}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">{m.t('account.nav.back')}</a>
        </p>
        <h1>{m.t('account.passkeys.heading')}</h1>
        <p class="lead">{m.t('account.passkeys.lead')}</p>
        {view.notice ? <Notice message={view.notice} /> : null}
        <ErrorSummary id="passkeys-error" items={view.error ? [{ message: view.error }] : []} />
        <section
          id="passkey-register"
          aria-labelledby="add-passkey-heading"
          data-options={PASSKEY_PATHS.registerOptions}
          data-action={PASSKEY_PATHS.register}
          data-csrf={view.csrf.register}
          {...passkeyScriptMessages(m)}
        >
          <h2 id="add-passkey-heading">{m.t('account.passkeys.addHeading')}</h2>
          <p class="muted" data-passkey-fallback>
            {m.t('account.passkeys.needsScript')}
          </p>
          <div class="field" data-passkey-field hidden>
            <label for="passkey-name">{m.t('account.passkeys.name')}</label>
            <p class="hint" id="passkey-name-hint">
              {m.t('account.passkeys.nameHint')}
            </p>
            <input
              id="passkey-name"
              type="text"
              maxlength={80}
              autocomplete="off"
              dir="auto"
              aria-describedby="passkey-name-hint"
            />
          </div>
          <button type="button" class="wide" data-passkey="register" hidden>
            {m.t('account.passkeys.add')}
          </button>
          <p class="copy-status" role="status" aria-live="polite" />
        </section>
        <h2 id="passkeys-heading">{m.t('account.passkeys.listHeading')}</h2>
        {view.passkeys.length === 0 ? (
          <p class="muted">{m.t('account.passkeys.none')}</p>
        ) : (
          <ul class="plain-list" aria-labelledby="passkeys-heading">
            {view.passkeys.map((passkey) => (
              <PasskeyRow passkey={passkey} view={view} />
            ))}
          </ul>
        )}
      </div>
    </Page>
  );
}

/** The passkeys page as an HTML document string. */
export function renderPasskeysPage(view: PasskeysView, nonce: string): string {
  return toDocument(<PasskeysPage view={view} nonce={nonce} />);
}
