import { useMessages } from '../i18n/render-scope.ts';
import { textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { formatWhen, toDocument } from './parts.tsx';
import type { TimelineView } from './view.ts';

/** The timeline of one interaction: `/account/interactions/<session or Ask id>`. */
export const timelinePath = (sessionId: string) => `/account/interactions/${encodeURIComponent(sessionId)}`;

/**
 * What happened to one interaction or Ask, oldest first, from its events: never the answers
 * (the agent has them, with their receipts), only when and how.
 */
export function TimelinePage({ view, nonce }: { view: TimelineView; nonce: string }) {
  const m = useMessages();
  return (
    <Page title={m.t('account.timeline.title', { title: view.title })} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1 dir={textDir(view.title)}>{view.title}</h1>
        <dl class="record">
          <dt>{m.t('account.field.workspace')}</dt>
          <dd dir={textDir(view.workspaceName)}>{view.workspaceName}</dd>
          <dt>{m.t('account.timeline.kind', { kind: view.kind })}</dt>
          <dd>{view.sessionId}</dd>
        </dl>
        <h2>{m.t('account.timeline.heading')}</h2>
        {view.entries.length === 0 ? (
          <p>{m.t('account.timeline.empty')}</p>
        ) : (
          <ol>
            {view.entries.map((entry) => (
              <li>
                <time datetime={entry.at.toISOString()}>{formatWhen(entry.at)}</time> {entry.label}
              </li>
            ))}
          </ol>
        )}
        {view.more ? <p>{m.t('account.timeline.more', { api: 'GET /v1/sessions/{id}/events' })}</p> : null}
        <p>
          <a href="/account/interactions">{m.t('account.timeline.back')}</a>
        </p>
      </div>
    </Page>
  );
}

/** The timeline page as an HTML document string. */
export function renderTimelinePage(view: TimelineView, nonce: string): string {
  return toDocument(<TimelinePage view={view} nonce={nonce} />);
}
