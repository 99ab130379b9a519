import { Page } from '../layout.tsx';
import { CsrfField, FormError, TextField, toDocument } from './parts.tsx';
import { ACCOUNT_FORM_FIELDS, type SignUpView } from './view.ts';

const FORM_ERROR_ID = 'signup-error';

function lead(via: SignUpView['via']): string {
  switch (via) {
    case 'first_account':
      return 'This is a new Sess server. The account you create now is its first.';
    case 'invite':
      return 'You were invited. You get your own workspace and join the one you were invited to.';
    case 'open':
      return 'You get your own workspace to connect agents to.';
  }
}

/** The sign-up form: e-mail, a new password, "Create account". */
export function SignUpPage({ view, nonce }: { view: SignUpView; nonce: string }) {
  const formError = view.error ? [FORM_ERROR_ID] : [];
  return (
    <Page title={view.error || view.fieldErrors ? 'Error: Create account · Sess' : 'Create account · Sess'} nonce={nonce}>
      <div class="card">
        <h1>Create your Sess account</h1>
        <p class="lead">{lead(view.via)}</p>
        {view.error ? <FormError id={FORM_ERROR_ID} message={view.error} /> : null}
        <form method="post" action="/signup" novalidate>
          <CsrfField token={view.csrf} />
          <input type="hidden" name={ACCOUNT_FORM_FIELDS.returnTo} value={view.returnTo} />
          {view.token ? <input type="hidden" name={ACCOUNT_FORM_FIELDS.token} value={view.token} /> : null}
          <TextField
            id="email"
            name="email"
            label="Email"
            type="email"
            value={view.email}
            autocomplete="email"
            error={view.fieldErrors?.email}
            describedBy={formError}
            maxlength={254}
            autofocus={Boolean(view.fieldErrors?.email) || !view.fieldErrors?.password}
          />
          <TextField
            id="password"
            name="password"
            label="Password"
            type="password"
            autocomplete="new-password"
            hint="At least 10 characters. A few words you will remember work well."
            error={view.fieldErrors?.password}
            describedBy={formError}
            minlength={10}
            maxlength={256}
            autofocus={Boolean(view.fieldErrors?.password) && !view.fieldErrors?.email}
          />
          <div class="actions">
            <button type="submit">Create account</button>
          </div>
        </form>
        <p class="muted switch">
          Already have an account? <a href={view.signinHref}>Sign in</a>
        </p>
      </div>
    </Page>
  );
}

/** The sign-up page as an HTML document string. */
export function renderSignUpPage(view: SignUpView, nonce: string): string {
  return toDocument(<SignUpPage view={view} nonce={nonce} />);
}
