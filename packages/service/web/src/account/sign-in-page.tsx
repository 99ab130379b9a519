import { Page } from '../layout.tsx';
import { CsrfField, FormError, Notice, TextField, toDocument } from './parts.tsx';
import { PASSKEY_SCRIPT } from './passkey-script.ts';
import { ACCOUNT_FORM_FIELDS, PASSKEY_PATHS, type SignInView } from './view.ts';

const FORM_ERROR_ID = 'signin-error';

/** The sign-in page: e-mail + password, and the upstream provider's button when configured. */
export function SignInPage({ view, nonce }: { view: SignInView; nonce: string }) {
  const formError = view.error ? [FORM_ERROR_ID] : [];
  return (
    <Page
      title={view.error || view.fieldErrors ? 'Error: Sign in · Sess' : 'Sign in · Sess'}
      nonce={nonce}
      script={view.passkey ? PASSKEY_SCRIPT : undefined}
    >
      <div class="card">
        <h1>Sign in to Sess</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.error ? <FormError id={FORM_ERROR_ID} message={view.error} /> : null}
        <form method="post" action="/signin" novalidate>
          <CsrfField token={view.csrf} />
          <input type="hidden" name={ACCOUNT_FORM_FIELDS.returnTo} value={view.returnTo} />
          <TextField
            id="email"
            name="email"
            label="Email"
            type="email"
            value={view.email}
            autocomplete="username"
            error={view.fieldErrors?.email}
            invalid={Boolean(view.error)}
            describedBy={formError}
            maxlength={254}
            autofocus={!view.email}
          />
          <TextField
            id="password"
            name="password"
            label="Password"
            type="password"
            autocomplete="current-password"
            error={view.fieldErrors?.password}
            invalid={Boolean(view.error)}
            describedBy={formError}
            maxlength={1024}
            autofocus={Boolean(view.email)}
          />
          <div class="actions">
            <button type="submit">Sign in</button>
          </div>
        </form>
        {view.passkey ? (
          <section
            id="passkey-signin"
            class="alt-signin"
            aria-label="Sign in with a passkey"
            data-options={PASSKEY_PATHS.signInOptions}
            data-action={PASSKEY_PATHS.signIn}
            data-csrf={view.passkey.csrf}
            data-return-to={view.returnTo}
          >
            <p class="muted">or</p>
            <button type="button" class="secondary wide" data-passkey="sign-in" hidden>
              Sign in with a passkey
            </button>
            <p class="copy-status" role="status" aria-live="polite" />
          </section>
        ) : null}
        {view.oidc ? (
          <form method="post" action={view.oidc.action} class="alt-signin">
            <CsrfField token={view.oidc.csrf} />
            <input type="hidden" name={ACCOUNT_FORM_FIELDS.returnTo} value={view.returnTo} />
            <p class="muted">or</p>
            <button type="submit" class="secondary wide">{`Sign in with ${view.oidc.name}`}</button>
          </form>
        ) : null}
        {view.signupHref ? (
          <p class="muted switch">
            New to Sess? <a href={view.signupHref}>Create an account</a>
          </p>
        ) : null}
      </div>
    </Page>
  );
}

/** The sign-in page as an HTML document string. */
export function renderSignInPage(view: SignInView, nonce: string): string {
  return toDocument(<SignInPage view={view} nonce={nonce} />);
}
