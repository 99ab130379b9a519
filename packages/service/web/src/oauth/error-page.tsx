import { toDocument } from '../account/parts.tsx';
import { useMessages } from '../i18n/render-scope.ts';
import { textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import type { OAuthErrorView } from './view.ts';

/**
 * An authorization request Sess will not go on with, shown here instead of being sent back to
 * the app (its redirect address is not trusted yet, or the form was not genuine). No link back
 * to the app: that address is exactly what could not be trusted. The OAuth error's own
 * description is for the app's makers and stays as the protocol said it, in English (marked so).
 */
export function OAuthErrorPage({ view, nonce }: { view: OAuthErrorView; nonce: string }) {
  const m = useMessages();
  return (
    <Page title={`${view.title} · Sess`} nonce={nonce}>
      <div class="card">
        <h1>{view.title}</h1>
        <div class="banner error" role="alert">
          <p dir={textDir(view.message)}>{view.message}</p>
        </div>
        {view.detail ? (
          <p class="muted">
            {m.t('oauth.error.detail')}{' '}
            <span lang="en" dir={textDir(view.detail) ?? 'ltr'}>
              {view.detail}
            </span>
          </p>
        ) : null}
        {view.back ? (
          <p>
            <a href={view.back.href}>{view.back.label}</a>
          </p>
        ) : (
          <p class="muted">{m.t('oauth.error.next')}</p>
        )}
      </div>
    </Page>
  );
}

/** The error page as an HTML document string. */
export function renderOAuthErrorPage(view: OAuthErrorView, nonce: string): string {
  return toDocument(<OAuthErrorPage view={view} nonce={nonce} />);
}
