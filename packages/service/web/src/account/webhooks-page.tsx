import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, FormError, formatWhen, Notice, toDocument } from './parts.tsx';

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
  /** A secret shown once, after an add or a rotation. */
  secret?: { url: string; secret: string; note: string };
  notice?: string;
  error?: string;
}

function attemptText(attempt: WebhookAttemptView | undefined): string {
  if (!attempt) return 'not tried yet';
  const outcome = attempt.status === null ? (attempt.error ?? 'failed') : `HTTP ${attempt.status}`;
  return `${outcome} in ${attempt.durationMs} ms, ${formatWhen(attempt.at)}`;
}

function EndpointRow({ endpoint, csrf }: { endpoint: WebhookEndpointRowView; csrf: string }) {
  const action = (verb: string) => `${WEBHOOKS_PATH}/${encodeURIComponent(endpoint.id)}/${verb}`;
  return (
    <li class="api-key">
      <div>
        <code class="key-prefix">
          <Isolate text={endpoint.url} />
        </code>
        <p class="muted key-detail">
          <Isolate text={endpoint.workspaceName} /> ·{' '}
          {endpoint.eventTypes.length === 0 ? 'every event' : endpoint.eventTypes.join(', ')}
        </p>
        <p class="muted key-detail">
          Added {formatWhen(endpoint.createdAt)}
          {endpoint.disabledAt ? ` · Stopped ${formatWhen(endpoint.disabledAt)}: the receiver answered 410 Gone` : ''}
          {endpoint.previousSecretUntil ? ` · The old secret signs too until ${formatWhen(endpoint.previousSecretUntil)}` : ''}
        </p>
        <details>
          <summary>Delivery log ({endpoint.deliveries.length})</summary>
          <ul class="plain-list">
            {endpoint.deliveries.map((delivery) => (
              <li>
                <code>{delivery.eventType}</code> {delivery.status} · {delivery.attempts} tries ·{' '}
                {attemptText(delivery.lastAttempt)}
              </li>
            ))}
          </ul>
        </details>
      </div>
      {[
        ['test', 'Send test event', 'secondary'],
        ['rotate', 'Rotate secret', 'secondary'],
        ['remove', 'Remove', 'danger'],
      ].map(([verb, label, tone]) => (
        <form method="post" action={action(verb!)}>
          <CsrfField token={csrf} />
          <button type="submit" class={tone}>
            {label}
          </button>
        </form>
      ))}
    </li>
  );
}

/** Webhooks: add an endpoint (its secret shown once), send a test event, rotate, remove, and each one's delivery log. */
export function WebhooksPage({ view, nonce }: { view: WebhooksView; nonce: string }) {
  return (
    <Page title={view.error ? 'Error: Webhooks · Sess' : 'Webhooks · Sess'} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">← Your account</a>
        </p>
        <h1>Webhooks</h1>
        <p class="lead">Sess POSTs each event of your workspace’s interactions to your endpoint, signed (Standard Webhooks).</p>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.error ? <FormError id="webhooks-error" message={view.error} /> : null}
        {view.secret ? (
          <div class="banner ok" role="status">
            <p>
              {view.secret.note} for <Isolate text={view.secret.url} />. Copy it now: it is shown only this once.
            </p>
            <label for="webhook-secret">Signing secret</label>
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
          <p>Only a workspace’s owners manage its webhooks.</p>
        ) : (
          <form method="post" action={WEBHOOKS_PATH}>
            <h2>Add an endpoint</h2>
            <CsrfField token={view.csrf.webhooks} />
            <label for="webhook-workspace">Workspace</label>
            <select id="webhook-workspace" name="workspace_id">
              {view.workspaces.map((workspace) => (
                <option value={workspace.id}>{workspace.name}</option>
              ))}
            </select>
            <label for="webhook-url">URL (https)</label>
            <input id="webhook-url" name="url" type="url" required autocomplete="off" />
            <fieldset>
              <legend>Events (none checked: every event)</legend>
              {view.eventTypes.map((type) => (
                <label>
                  <input type="checkbox" name="event_types" value={type} /> {type}
                </label>
              ))}
            </fieldset>
            <button type="submit">Add endpoint</button>
          </form>
        )}
      </div>
    </Page>
  );
}

export function renderWebhooksPage(view: WebhooksView, nonce: string): string {
  return toDocument(<WebhooksPage view={view} nonce={nonce} />);
}
