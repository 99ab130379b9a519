import type { Messages } from '../i18n/messages.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, ErrorSummary, formatWhen, Notice, Sentence, toDocument, When } from './parts.tsx';

/** Where the webhook endpoints of the person's workspaces are managed. */
export const WEBHOOKS_PATH = '/account/webhooks';

/** One try as the delivery log shows it. */
export interface WebhookAttemptView {
  at: Date;
  status: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookDeliveryRowView {
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  lastAttempt: WebhookAttemptView | undefined;
}

export interface WebhookEndpointRowView {
  id: string;
  workspaceName: string;
  url: string;
  /** Empty: every type. */
  eventTypes: string[];
  createdAt: Date;
  disabledAt: Date | null;
  previousSecretUntil: Date | null;
  deliveries: WebhookDeliveryRowView[];
}

export interface WebhooksView {
  email: string;
  /** The workspaces the person owns. */
  workspaces: { id: string; name: string }[];
  endpoints: WebhookEndpointRowView[];
  eventTypes: readonly string[];
  csrf: { webhooks: string; signout: string };
  /** A secret shown once, after an add (`added`) or a rotation (`rotated`). */
  secret?: { url: string; secret: string; kind: 'added' | 'rotated' };
  notice?: string;
  error?: string;
}

function attemptText(m: Messages, attempt: WebhookAttemptView | undefined): string {
  if (!attempt) return m.t('account.webhooks.attempt.none');
  const outcome = attempt.status === null ? (attempt.error ?? m.t('account.webhooks.attempt.failed')) : `HTTP ${attempt.status}`;
  return m.t('account.webhooks.attempt', { outcome, ms: attempt.durationMs, when: formatWhen(attempt.at) });
}

function EndpointRow({ endpoint, csrf }: { endpoint: WebhookEndpointRowView; csrf: string }) {
  const m = useMessages();
  const action = (verb: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(endpoint.id)}/${verb}`;
  return (
    <li class="api-key">
      <div>
        <code class="key-prefix">
          <Isolate text={endpoint.url} />
        </code>
        <p class="muted key-detail">
          <Isolate text={endpoint.workspaceName} /> ·{' '}
          {endpoint.eventTypes.length === 0 ? m.t('account.webhooks.everyEvent') : m.list(endpoint.eventTypes)}
        </p>
        <p class="muted key-detail">
          <Sentence id="account.webhooks.added" elements={{ when: <When date={endpoint.createdAt} /> }} />
          {endpoint.disabledAt ? (
            <>
              {' · '}
              <Sentence id="account.webhooks.stopped" elements={{ when: <When date={endpoint.disabledAt} /> }} />
            </>
          ) : null}
          {endpoint.previousSecretUntil ? (
            <>
              {' · '}
              <Sentence id="account.webhooks.oldSecret" elements={{ when: <When date={endpoint.previousSecretUntil} /> }} />
            </>
          ) : null}
        </p>
        <details>
          <summary>{m.t('account.webhooks.log', { count: endpoint.deliveries.length })}</summary>
          <ul class="plain-list">
            {endpoint.deliveries.map((delivery) => (
              <li>
                <code>{delivery.eventType}</code>{' '}
                {m.t('account.webhooks.delivery', {
                  status: delivery.status,
                  count: delivery.attempts,
                  last: attemptText(m, delivery.lastAttempt),
                })}
              </li>
            ))}
          </ul>
        </details>
      </div>
      <form method="post" action={action('test')}>
        <CsrfField token={csrf} />
        <button type="submit" class="secondary" aria-label={m.t('account.webhooks.testLabel', { url: endpoint.url })}>
          {m.t('account.webhooks.test')}
        </button>
      </form>
      <form method="post" action={action('rotate')}>
        <CsrfField token={csrf} />
        <button type="submit" class="secondary" aria-label={m.t('account.webhooks.rotateLabel', { url: endpoint.url })}>
          {m.t('account.webhooks.rotate')}
        </button>
      </form>
      <form method="post" action={action('remove')}>
        <CsrfField token={csrf} />
        <button type="submit" class="danger" aria-label={m.t('account.webhooks.removeLabel', { url: endpoint.url })}>
          {m.t('account.webhooks.remove')}
        </button>
      </form>
    </li>
  );
}

/** Webhooks: add an endpoint (its secret shown once), send a test event, rotate, remove, and each one's delivery log. */
export function WebhooksPage({ view, nonce }: { view: WebhooksView; nonce: string }) {
  const m = useMessages();
  const title = m.t('account.webhooks.title');
  return (
    <Page title={view.error ? m.t('account.errors.pageTitle', { title }) : title} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">{m.t('account.nav.back')}</a>
        </p>
        <h1>{m.t('account.webhooks.heading')}</h1>
        <p class="lead">{m.t('account.webhooks.lead')}</p>
        {view.notice ? <Notice message={view.notice} /> : null}
        <ErrorSummary id="webhooks-error" items={view.error ? [{ message: view.error, field: 'webhook-url' }] : []} />
        {view.secret ? (
          <div class="banner ok" role="status">
            <p>
              <Sentence
                id="account.webhooks.secretShown"
                values={{ kind: view.secret.kind }}
                elements={{ url: <Isolate text={view.secret.url} /> }}
              />
            </p>
            <label for="webhook-secret">{m.t('account.webhooks.secret')}</label>
            <textarea id="webhook-secret" class="secret key-value" readonly rows={2}>
              {view.secret.secret}
            </textarea>
          </div>
        ) : null}
        <ul class="plain-list">
          {view.endpoints.map((endpoint) => (
            <EndpointRow endpoint={endpoint} csrf={view.csrf.webhooks} />
          ))}
        </ul>
        {view.workspaces.length === 0 ? (
          <p>{m.t('account.webhooks.ownersOnly')}</p>
        ) : (
          <form method="post" action={WEBHOOKS_PATH}>
            <h2>{m.t('account.webhooks.addHeading')}</h2>
            <CsrfField token={view.csrf.webhooks} />
            <div class="field">
              <label for="webhook-workspace">{m.t('account.field.workspace')}</label>
              <select id="webhook-workspace" name="workspace_id">
                {view.workspaces.map((workspace) => (
                  <option value={workspace.id}>{workspace.name}</option>
                ))}
              </select>
            </div>
            <div class={view.error ? 'field invalid' : 'field'}>
              <label for="webhook-url">{m.t('account.webhooks.url')}</label>
              <input
                id="webhook-url"
                name="url"
                type="url"
                required
                autocomplete="off"
                aria-invalid={view.error ? 'true' : undefined}
                aria-describedby={view.error ? 'webhooks-error' : undefined}
              />
            </div>
            <fieldset>
              <legend>{m.t('account.webhooks.events')}</legend>
              {view.eventTypes.map((type) => (
                <div class="choice">
                  <input type="checkbox" id={`event-${type}`} name="event_types" value={type} />
                  <label for={`event-${type}`}>{type}</label>
                </div>
              ))}
            </fieldset>
            <div class="actions">
              <button type="submit">{m.t('account.webhooks.submit')}</button>
            </div>
          </form>
        )}
      </div>
    </Page>
  );
}

export function renderWebhooksPage(view: WebhooksView, nonce: string): string {
  return toDocument(<WebhooksPage view={view} nonce={nonce} />);
}
