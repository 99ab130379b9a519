import { AccountHeader } from '../account/account-page.tsx';
import { toDocument } from '../account/parts.tsx';
import { ConnectAgent } from '../connect/connect-agent.tsx';
import { COPY_SCRIPT } from '../connect/copy-script.ts';
import { Page } from '../layout.tsx';
import type { HomeView } from './view.ts';

function AccountActions({ view }: { view: HomeView }) {
  if (view.signedIn) {
    return (
      <div class="actions">
        <a class="button" href={view.accountHref}>
          Your account
        </a>
      </div>
    );
  }
  return (
    <div class="actions">
      <a class="button" href={view.signinHref}>
        Sign in
      </a>
      {view.signupHref ? (
        <a class="button secondary" href={view.signupHref}>
          Create account
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
  return (
    <Page title="Sess: ask a person, carry on with the answer" nonce={nonce} script={COPY_SCRIPT}>
      {view.signedIn ? <AccountHeader email={view.signedIn.email} signoutCsrf={view.signedIn.signoutCsrf} /> : null}
      <div class="card">
        <h1>Sess</h1>
        <p class="lead">
          Sess lets an AI agent ask you something and carry on with your answer. The agent sends you a private link to a small
          form; you answer on your phone, and the agent gets your answer with a signed receipt.
        </p>
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
