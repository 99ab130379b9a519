import { useMessages } from '../i18n/render-scope.ts';
import { Page } from '../layout.tsx';
import { CsrfField, ErrorSummary, Notice, type SummaryItem, TextField, toDocument } from './parts.tsx';
import { PASSKEY_SCRIPT, passkeyScriptMessages } from './passkey-script.ts';
import { ACCOUNT_FORM_FIELDS, PASSKEY_PATHS, type SignInView } from './view.ts';

const FORM_ERROR_ID = 'signin-error';

/** The sign-in page: e-mail + password, and the upstream provider's button when configured. */
export function SignInPage({ view, nonce }: { view: SignInView; nonce: string }) {
  const m = useMessages();
  const formError = view.error ? [FORM_ERROR_ID] : [];
  const summary: SummaryItem[] = [
    ...(view.error ? [{ message: view.error, field: 'email' }] : []),
    ...(view.fieldErrors?.email ? [{ message: view.fieldErrors.email, field: 'email' }] : []),
    ...(view.fieldErrors?.password ? [{ message: view.fieldErrors.password, field: 'password' }] : []),
  ];
  const failed = summary.length > 0;
  const title = m.t('account.signIn.title');
  return (
    <Page
      title={failed ? m.t('account.errors.pageTitle', { title }) : title}
      nonce={nonce}
      script={view.passkey ? PASSKEY_SCRIPT : undefined}
    >
      <div class="card">
        <h1>{m.t('account.signIn.heading')}</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        <ErrorSummary id={FORM_ERROR_ID} items={summary} />
        <form method="post" action="/signin" novalidate>
          <CsrfField token={view.csrf} />
          <input type="hidden" name={ACCOUNT_FORM_FIELDS.returnTo} value={view.returnTo} />
          <TextField
            id="email"
            name="email"
            label={m.t('account.field.email')}
            type="email"
            value={view.email}
            autocomplete="username"
            error={view.fieldErrors?.email}
            invalid={Boolean(view.error)}
            describedBy={formError}
            maxlength={254}
            autofocus={!failed && !view.email}
          />
          <TextField
            id="password"
            name="password"
            label={m.t('account.field.password')}
            type="password"
            autocomplete="current-password"
            error={view.fieldErrors?.password}
            invalid={Boolean(view.error)}
            describedBy={formError}
            maxlength={1024}
            autofocus={!failed && Boolean(view.email)}
          />
          <div class="actions">
            <button type="submit">{m.t('account.signIn.submit')}</button>
          </div>
        </form>
        {view.passkey ? (
          <section
            id="passkey-signin"
            class="alt-signin"
            aria-label={m.t('account.signIn.passkey')}
            data-options={PASSKEY_PATHS.signInOptions}
            data-action={PASSKEY_PATHS.signIn}
            data-csrf={view.passkey.csrf}
            data-return-to={view.returnTo}
            {...passkeyScriptMessages(m)}
          >
            <p class="muted">{m.t('account.signIn.or')}</p>
            <button type="button" class="secondary wide" data-passkey="sign-in" hidden>
              {m.t('account.signIn.passkey')}
            </button>
            <p class="copy-status" role="status" aria-live="polite" />
          </section>
        ) : null}
        {view.oidc ? (
          <form method="post" action={view.oidc.action} class="alt-signin">
            <CsrfField token={view.oidc.csrf} />
            <input type="hidden" name={ACCOUNT_FORM_FIELDS.returnTo} value={view.returnTo} />
            <p class="muted">{m.t('account.signIn.or')}</p>
            <button type="submit" class="secondary wide">
              {m.t('account.signIn.oidc', { provider: view.oidc.name })}
            </button>
          </form>
        ) : null}
        {view.signupHref ? (
          <p class="muted switch">
            {m.t('account.signIn.newHere')} <a href={view.signupHref}>{m.t('account.signIn.createAccount')}</a>
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
