import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, FormError, formatWhen, Notice, toDocument } from './parts.tsx';
import { PASSKEY_SCRIPT } from './passkey-script.ts';
import { PASSKEY_PATHS, type PasskeysView, type PasskeyView } from './view.ts';

/** One passkey: its name, when it was added and last used, Rename (folded) and Remove. */
function PasskeyRow({ passkey, view }: { passkey: PasskeyView; view: PasskeysView }) {
  const base = `${PASSKEY_PATHS.page}/${encodeURIComponent(passkey.id)}`;
  const fieldId = `rename-${passkey.id}`;
  return (
    <li class="device passkey">
      <div>
        <span class="name">
          <Isolate text={passkey.name} />
        </span>
        <p class="muted device-when">
          Added {formatWhen(passkey.createdAt)} · Last used {formatWhen(passkey.lastUsedAt)}
        </p>
      </div>
      <form method="post" action={`${base}/remove`}>
        <CsrfField token={view.csrf.remove} />
        <button type="submit" class="danger" aria-label={`Remove ${passkey.name}`}>
          Remove
        </button>
      </form>
      <details>
        <summary>Rename</summary>
        <form method="post" action={`${base}/rename`}>
          <CsrfField token={view.csrf.rename} />
          <div class="field">
            <label for={fieldId}>New name</label>
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
            <button type="submit" class="secondary" aria-label={`Rename ${passkey.name}`}>
              Save name
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
  return (
    <Page title={view.error ? 'Error: Passkeys · Sess' : 'Passkeys · Sess'} nonce={nonce} script={PASSKEY_SCRIPT}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">← Your account</a>
        </p>
        <h1>Passkeys</h1>
        <p class="lead">
          A passkey signs you in with your device’s fingerprint, face, PIN or screen lock instead of your password. It stays on
          your device (or your password manager); Sess keeps only its public key.
        </p>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.error ? <FormError id="passkeys-error" message={view.error} /> : null}
        <section
          id="passkey-register"
          aria-labelledby="add-passkey-heading"
          data-options={PASSKEY_PATHS.registerOptions}
          data-action={PASSKEY_PATHS.register}
          data-csrf={view.csrf.register}
        >
          <h2 id="add-passkey-heading">Add a passkey</h2>
          <p class="muted" data-passkey-fallback>
            Adding a passkey needs JavaScript and a browser that supports passkeys.
          </p>
          <div class="field" data-passkey-field hidden>
            <label for="passkey-name">Passkey name</label>
            <p class="hint" id="passkey-name-hint">
              So you can tell your passkeys apart, e.g. “work laptop”.
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
            Add a passkey
          </button>
          <p class="copy-status" role="status" aria-live="polite" />
        </section>
        <h2 id="passkeys-heading">Your passkeys</h2>
        {view.passkeys.length === 0 ? (
          <p class="muted">No passkeys yet.</p>
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
