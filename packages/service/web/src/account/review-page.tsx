import { textDir } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, formatWhen, Notice, toDocument } from './parts.tsx';
import { timelinePath } from './timeline-page.tsx';
import type { ReviewItemView, ReviewView } from './view.ts';

/** Where the page and its one form live. */
export const REVIEW_PATH = '/account/interactions';
export const RETIRE_PATH = '/account/interactions/retire';
export const REVIEW_FORM_FIELDS = { handle: 'handle' } as const;

function ReviewItem({ item, csrf }: { item: ReviewItemView; csrf: string }) {
  const headingId = `item-${item.handle}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} dir={textDir(item.title)}>
        {item.title}
      </h2>
      <p>{item.explanation}</p>
      <dl class="record">
        <dt>Workspace</dt>
        <dd dir={textDir(item.workspaceName)}>{item.workspaceName}</dd>
        {item.apiKey ? (
          <>
            <dt>API key</dt>
            {item.apiKey.name === null ? (
              <dd>(no longer on record)</dd>
            ) : (
              <dd dir={textDir(item.apiKey.name)}>{item.apiKey.name}</dd>
            )}
          </>
        ) : null}
        <dt>Handle</dt>
        <dd>{item.handle}</dd>
        <dt>Started</dt>
        <dd>{formatWhen(item.createdAt)}</dd>
        <dt>Stopped</dt>
        <dd>{formatWhen(item.updatedAt)}</dd>
      </dl>
      {item.formId ? (
        <p>
          <a href={timelinePath(item.formId)}>What happened to it (timeline)</a>
        </p>
      ) : null}
      <form method="post" action={RETIRE_PATH}>
        <CsrfField token={csrf} />
        <input type="hidden" name={REVIEW_FORM_FIELDS.handle} value={item.handle} />
        <button type="submit" class="danger" aria-label={`Retire “${item.title}”`}>
          Retire
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
  return (
    <Page title="Interactions to review · Sess" nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>Interactions to review</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.items.length === 0 ? (
          <p class="lead">Nothing to review. When an agent’s interaction gets stuck, it shows up here.</p>
        ) : (
          <p class="lead">
            Your agents cannot move these on. Retire one to close its link to new answers and free its place: each app keeps at
            most 100 unfinished interactions.
          </p>
        )}
        {view.items.map((item) => (
          <ReviewItem item={item} csrf={view.csrf.retire} />
        ))}
        {view.recent && view.recent.length > 0 ? (
          <section aria-labelledby="recent-heading">
            <h2 id="recent-heading">Recent</h2>
            <p>What happened to each (created, notified, opened, answered, …), in its timeline.</p>
            <ul>
              {view.recent.map((form) => (
                <li>
                  <a href={timelinePath(form.formId)} dir={textDir(form.title)}>
                    {form.title}
                  </a>{' '}
                  <span class="muted">
                    {form.kind === 'ask' ? 'Ask, ' : ''}
                    {form.workspaceName}, {formatWhen(form.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <p>
          <a href="/account">Back to your account</a>
        </p>
      </div>
    </Page>
  );
}

/** The review page as an HTML document string. */
export function renderReviewPage(view: ReviewView, nonce: string): string {
  return toDocument(<ReviewPage view={view} nonce={nonce} />);
}
