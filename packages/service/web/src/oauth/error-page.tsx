import { toDocument } from '../account/parts.tsx';
import { textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import type { OAuthErrorView } from './view.ts';

/**
 * An authorization request Sess will not go on with, shown here instead of being sent back to
 * the app (its redirect address is not trusted yet, or the form was not genuine). No link back
 * to the app: that address is exactly what could not be trusted.
 */
export function OAuthErrorPage({ view, nonce }: { view: OAuthErrorView; nonce: string }) {
  return (
    <Page title={`${view.title} · Sess`} nonce={nonce}>
      <div class="card">
        <h1>{view.title}</h1>
        <div class="banner error" role="alert">
          <p dir={textDir(view.message)}>{view.message}</p>
        </div>
        <p class="muted">Go back to the app and start connecting again. If this keeps happening, tell the app's makers.</p>
      </div>
    </Page>
  );
}

/** The error page as an HTML document string. */
export function renderOAuthErrorPage(view: OAuthErrorView, nonce: string): string {
  return toDocument(<OAuthErrorPage view={view} nonce={nonce} />);
}
