import { useMessages } from '../i18n/render-scope.ts';
import { textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, formatWhen, Notice, toDocument, When } from './parts.tsx';
import { timelinePath } from './timeline-page.tsx';
import type { ReviewItemView, ReviewView } from './view.ts';

/** Where the page and its one form live. */
export const REVIEW_PATH = '/account/interactions';
export const RETIRE_PATH = '/account/interactions/retire';
export const REVIEW_FORM_FIELDS = { handle: 'handle' } as const;

function ReviewItem({ item, csrf }: { item: ReviewItemView; csrf: string }) {
  const m = useMessages();
  const headingId = `item-${item.handle}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} dir={textDir(item.title)}>
        {item.title}
      </h2>
      <p>{item.explanation}</p>
      <dl class="record">
        <dt>{m.t('account.field.workspace')}</dt>
        <dd dir={textDir(item.workspaceName)}>{item.workspaceName}</dd>
        {item.apiKey ? (
          <>
            <dt>{m.t('account.review.apiKey')}</dt>
            {item.apiKey.name === null ? (
              <dd>{m.t('account.review.apiKeyGone')}</dd>
            ) : (
              <dd dir={textDir(item.apiKey.name)}>{item.apiKey.name}</dd>
            )}
          </>
        ) : null}
        <dt>{m.t('account.review.handle')}</dt>
        <dd>{item.handle}</dd>
        <dt>{m.t('account.review.started')}</dt>
        <dd>
          <When date={item.createdAt} />
        </dd>
        <dt>{m.t('account.review.stopped')}</dt>
        <dd>
          <When date={item.updatedAt} />
        </dd>
      </dl>
      {item.formId ? (
        <p>
          <a href={timelinePath(item.formId)}>{m.t('account.review.timelineLink')}</a>
        </p>
      ) : null}
      <form method="post" action={RETIRE_PATH}>
        <CsrfField token={csrf} />
        <input type="hidden" name={REVIEW_FORM_FIELDS.handle} value={item.handle} />
        <button type="submit" class="danger" aria-label={m.t('account.review.retireLabel', { title: item.title })}>
          {m.t('account.review.retire')}
        </button>
      </form>
    </section>
  );
}

/**
 * The interactions the person's agents started that no tool can move on (blocked, or created
 * with an unknown outcome), and those of the API keys of workspaces they own, each with "Retire".
 */
export function ReviewPage({ view, nonce }: { view: ReviewView; nonce: string }) {
  const m = useMessages();
  return (
    <Page title={m.t('account.review.title')} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>{m.t('account.review.heading')}</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.items.length === 0 ? (
          <p class="lead">{m.t('account.review.empty')}</p>
        ) : (
          <p class="lead">{m.t('account.review.lead', { count: view.items.length, max: 100 })}</p>
        )}
        {view.items.map((item) => (
          <ReviewItem item={item} csrf={view.csrf.retire} />
        ))}
        {view.recent && view.recent.length > 0 ? (
          <section aria-labelledby="recent-heading">
            <h2 id="recent-heading">{m.t('account.review.recent')}</h2>
            <p>{m.t('account.review.recentLead')}</p>
            <ul>
              {view.recent.map((form) => (
                <li>
                  <a href={timelinePath(form.formId)} dir={textDir(form.title)}>
                    {form.title}
                  </a>{' '}
                  <span class="muted">
                    {m.t('account.review.recentDetail', {
                      kind: form.kind,
                      workspace: form.workspaceName,
                      when: formatWhen(form.createdAt),
                    })}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <p>
          <a href="/account">{m.t('account.nav.back')}</a>
        </p>
      </div>
    </Page>
  );
}

/** The review page as an HTML document string. */
export function renderReviewPage(view: ReviewView, nonce: string): string {
  return toDocument(<ReviewPage view={view} nonce={nonce} />);
}
