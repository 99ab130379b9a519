import { useMessages } from '../i18n/render-scope.ts';
import { Page } from '../layout.tsx';
import { toDocument } from './parts.tsx';
import type { MessageView } from './view.ts';

/** A page that says one thing and offers one way on (rate limit, refused form, closed link). */
export function MessagePage({ view, nonce }: { view: MessageView; nonce: string }) {
  const m = useMessages();
  const tone = view.tone ?? 'info';
  return (
    <Page title={m.t('account.message.title', { title: view.title })} nonce={nonce}>
      <div class="card">
        <h1>{view.title}</h1>
        <div class={tone === 'info' ? 'banner' : `banner ${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
          <p>{view.message}</p>
        </div>
        {view.link ? (
          <p>
            <a class="button secondary" href={view.link.href}>
              {view.link.label}
            </a>
          </p>
        ) : null}
      </div>
    </Page>
  );
}

/** The message page as an HTML document string. */
export function renderMessagePage(view: MessageView, nonce: string): string {
  return toDocument(<MessagePage view={view} nonce={nonce} />);
}
