import type { MessageKey } from '../i18n/catalog-types.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Page } from '../layout.tsx';
import { CsrfField, ErrorSummary, type SummaryItem, TextField, toDocument } from './parts.tsx';
import { ACCOUNT_FORM_FIELDS, type SignUpView } from './view.ts';

const FORM_ERROR_ID = 'signup-error';

const LEAD: Record<SignUpView['via'], MessageKey> = {
  first_account: 'account.signUp.lead.firstAccount',
  invite: 'account.signUp.lead.invite',
  open: 'account.signUp.lead.open',
};

/** The sign-up form: e-mail, a new password, "Create account". */
export function SignUpPage({ view, nonce }: { view: SignUpView; nonce: string }) {
  const m = useMessages();
  const formError = view.error ? [FORM_ERROR_ID] : [];
  const summary: SummaryItem[] = [
    ...(view.error ? [{ message: view.error }] : []),
    ...(view.fieldErrors?.email ? [{ message: view.fieldErrors.email, field: 'email' }] : []),
    ...(view.fieldErrors?.password ? [{ message: view.fieldErrors.password, field: 'password' }] : []),
  ];
  const failed = summary.length > 0;
  const title = m.t('account.signUp.title');
  return (
    <Page title={failed ? m.t('account.errors.pageTitle', { title }) : title} nonce={nonce}>
      <div class="card">
        <h1>{m.t('account.signUp.heading')}</h1>
        <p class="lead">{m.t(LEAD[view.via])}</p>
        <ErrorSummary id={FORM_ERROR_ID} items={summary} />
        <form method="post" action="/signup" novalidate>
          <CsrfField token={view.csrf} />
          <input type="hidden" name={ACCOUNT_FORM_FIELDS.returnTo} value={view.returnTo} />
          {view.token ? <input type="hidden" name={ACCOUNT_FORM_FIELDS.token} value={view.token} /> : null}
          <TextField
            id="email"
            name="email"
            label={m.t('account.field.email')}
            type="email"
            value={view.email}
            autocomplete="email"
            error={view.fieldErrors?.email}
            describedBy={formError}
            maxlength={254}
            autofocus={!failed}
          />
          <TextField
            id="password"
            name="password"
            label={m.t('account.field.password')}
            type="password"
            autocomplete="new-password"
            hint={m.t('account.signUp.passwordHint', { min: 10 })}
            error={view.fieldErrors?.password}
            describedBy={formError}
            minlength={10}
            maxlength={256}
          />
          <div class="actions">
            <button type="submit">{m.t('account.signUp.submit')}</button>
          </div>
        </form>
        <p class="muted switch">
          {m.t('account.signUp.haveAccount')} <a href={view.signinHref}>{m.t('account.signUp.signIn')}</a>
        </p>
      </div>
    </Page>
  );
}

/** The sign-up page as an HTML document string. */
export function renderSignUpPage(view: SignUpView, nonce: string): string {
  return toDocument(<SignUpPage view={view} nonce={nonce} />);
}
