import { AccountHeader } from '../account/account-page.tsx';
import { toDocument } from '../account/parts.tsx';
import { ConnectAgent } from '../connect/connect-agent.tsx';
import { COPY_SCRIPT } from '../connect/copy-script.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Page } from '../layout.tsx';
import type { HomeView } from './view.ts';

function AccountActions({ view }: { view: HomeView }) {
  const m = useMessages();
  if (view.signedIn) {
    return (
      <div class="actions">
        <a class="button" href={view.accountHref}>
          {m.t('home.account')}
        </a>
      </div>
    );
  }
  return (
    <div class="actions">
      <a class="button" href={view.signinHref}>
        {m.t('home.signIn')}
      </a>
      {view.signupHref ? (
        <a class="button secondary" href={view.signupHref}>
          {m.t('home.signUp')}
        </a>
      ) : null}
    </div>
  );
}

/**
 * The home page, named by the OAuth metadata as the service documentation: what Sess does, the
 * MCP URL to copy, how each client connects, and the way to an account. Works without
 * JavaScript; the one script only adds the Copy button.
 */
export function HomePage({ view, nonce }: { view: HomeView; nonce: string }) {
  const m = useMessages();
  return (
    <Page title={m.t('home.documentTitle')} nonce={nonce} script={COPY_SCRIPT}>
      {view.signedIn ? <AccountHeader email={view.signedIn.email} signoutCsrf={view.signedIn.signoutCsrf} /> : null}
      <div class="card">
        <h1>Sess</h1>
        <p class="lead">{m.t('home.lead')}</p>
        <AccountActions view={view} />
        <ConnectAgent view={view.connect} />
      </div>
    </Page>
  );
}

/** The home page as an HTML document string. */
export function renderHomePage(view: HomeView, nonce: string): string {
  return toDocument(<HomePage view={view} nonce={nonce} />);
}
