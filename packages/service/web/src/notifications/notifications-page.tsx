import { AccountHeader } from '../account/account-page.tsx';
import { CsrfField, FormError, formatWhen, Notice, toDocument } from '../account/parts.tsx';
import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { NOTIFY_SCRIPT } from './notify-script.ts';
import { type DeviceView, NOTIFY_FORM_FIELDS as F, NOTIFY_PATHS, type NotificationsView } from './view.ts';

function DeviceRow({ device, csrf }: { device: DeviceView; csrf: string }) {
  return (
    <li class="device">
      <div>
        <span class="name">
          <Isolate text={device.name} />
        </span>
        <p class="muted device-when">
          Added {formatWhen(device.createdAt)} · Last delivery: {formatWhen(device.lastDeliveryAt, 'none yet')}
          {device.lastFailureAt ? ` · Last failure: ${formatWhen(device.lastFailureAt)}` : ''}
        </p>
      </div>
      <form method="post" action={NOTIFY_PATHS.removeDevice}>
        <CsrfField token={csrf} />
        <input type="hidden" name={F.device} value={device.id} />
        <button type="submit" class="danger" aria-label={`Remove ${device.name}`}>
          Remove
        </button>
      </form>
    </li>
  );
}

function Check({ id, name, checked, label, hint }: { id: string; name: string; checked: boolean; label: string; hint?: string }) {
  return (
    <>
      <div class="choice">
        <input
          type="checkbox"
          id={id}
          name={name}
          value="on"
          checked={checked}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        <label for={id}>{label}</label>
      </div>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </>
  );
}

const ASK_CHOICES = [
  ['each_answer', 'On each answer'],
  ['closed', 'When it closes'],
  ['off', 'Off'],
] as const;

function SettingsForm({ view }: { view: NotificationsView }) {
  const s = view.settings;
  const invalid = (field: string) => (view.error?.field.startsWith(field) ? 'true' : undefined);
  return (
    <form method="post" action={NOTIFY_PATHS.settings} aria-describedby={view.error ? 'settings-error' : undefined}>
      <CsrfField token={view.csrf.settings} />
      <fieldset>
        <legend>Channels</legend>
        <Check id="push" name={F.push} checked={s.push} label="Push notifications to my devices" />
        <Check
          id="email"
          name={F.email}
          checked={s.email}
          label="E-mail"
          hint={
            view.emailConfigured
              ? 'The link by e-mail when no device of yours takes a push.'
              : 'E-mail needs the server’s SMTP settings (SMTP_URL and a from address); this server has none yet, so no e-mail is sent.'
          }
        />
      </fieldset>
      <fieldset>
        <legend>Quiet hours</legend>
        <Check
          id="quiet"
          name={F.quiet}
          checked={s.quiet}
          label="Hold notifications during quiet hours"
          hint="They are sent when the quiet hours end, if the link is still open."
        />
        <div class="quiet-times">
          <div class="field">
            <label for="quiet-from">From</label>
            <input id="quiet-from" type="time" name={F.quietFrom} value={s.quietFrom} aria-invalid={invalid('/quietHours')} />
          </div>
          <div class="field">
            <label for="quiet-to">To</label>
            <input id="quiet-to" type="time" name={F.quietTo} value={s.quietTo} aria-invalid={invalid('/quietHours')} />
          </div>
        </div>
        <div class="field">
          <label for="time-zone">Time zone</label>
          <p class="hint" id="time-zone-hint">
            Such as Europe/Ljubljana or UTC.
          </p>
          <input
            id="time-zone"
            type="text"
            name={F.timeZone}
            value={s.timeZone}
            maxlength={64}
            autocomplete="off"
            spellcheck={false}
            autocapitalize="none"
            aria-describedby="time-zone-hint"
            aria-invalid={invalid('/timeZone')}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Reminders</legend>
        <Check
          id="reminders"
          name={F.reminders}
          checked={s.reminders}
          label="Remind me shortly before an unanswered link runs out"
        />
      </fieldset>
      <fieldset aria-describedby="ask-hint">
        <legend>Ask updates</legend>
        <p class="hint" id="ask-hint">
          When an Ask your agent shared with others gets answers, tell me:
        </p>
        {ASK_CHOICES.map(([value, label]) => (
          <div class="choice">
            <input type="radio" id={`ask-${value}`} name={F.askUpdates} value={value} checked={s.askUpdates === value} />
            <label for={`ask-${value}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>API keys</legend>
        <Check
          id="api-key-forms"
          name={F.apiKeyForms}
          checked={s.apiKeyForms}
          label="Also notify me for forms created with this workspace’s API keys"
          hint="For workspaces you own. Forms your connected apps create for you always notify you."
        />
      </fieldset>
      <div class="actions">
        <button type="submit">Save settings</button>
      </div>
    </form>
  );
}

/**
 * `/account/notifications`: "Notify this device" (a script subscribes this browser to Web Push;
 * on iOS it first explains Add to Home Screen), the person's devices with Remove, and the
 * settings form. Without JavaScript the devices and settings still work; adding a device needs it.
 */
export function NotificationsPage({ view, nonce }: { view: NotificationsView; nonce: string }) {
  return (
    <Page title="Notifications · Sess" nonce={nonce} script={NOTIFY_SCRIPT} webApp>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>Notifications</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.error ? <FormError id="settings-error" message={view.error.message} /> : null}
        <p class="lead">
          When an agent asks you something, Sess can send the question to your phone, so you do not have to carry the link there
          yourself. Only you are notified.
        </p>
        <section
          id="notify-device"
          aria-labelledby="this-device-heading"
          data-vapid-key={view.vapidPublicKey}
          data-csrf={view.csrf.device}
          data-action={NOTIFY_PATHS.devices}
          data-zone-unsaved={view.settingsUnsaved ? 'true' : 'false'}
        >
          <h2 id="this-device-heading">This device</h2>
          <div class="field" id="device-name-field" hidden>
            <label for="device-name">Device name</label>
            <p class="hint" id="device-name-hint">
              How this device is listed below. You can change it.
            </p>
            <input
              id="device-name"
              type="text"
              maxlength={80}
              autocomplete="off"
              dir="auto"
              aria-describedby="device-name-hint"
            />
          </div>
          <button type="button" id="notify-button" class="wide" hidden>
            Notify this device
          </button>
          <p id="notify-status" class="copy-status" role="status" aria-live="polite" />
          <div id="notify-ios" class="banner warn" hidden>
            <p>
              <strong>On an iPhone or iPad, add Sess to your Home Screen first.</strong>
            </p>
            <ol>
              <li>Tap Share (the square with the arrow), then Add to Home Screen.</li>
              <li>Open Sess from your Home Screen.</li>
              <li>Tap Notify this device there.</li>
            </ol>
            <p>Web Push needs iOS 16.4 or later.</p>
          </div>
          <div id="notify-insecure" class="banner warn" hidden>
            <p>
              Browsers take push notifications only on a page served over HTTPS (or localhost on this same computer). Open Sess at
              its https:// address to add this device, or rely on e-mail.
            </p>
          </div>
          <div id="notify-unsupported" class="banner warn" hidden>
            <p>This browser cannot take push notifications. Try another browser, or rely on e-mail.</p>
          </div>
          <div id="notify-denied" class="banner warn" hidden>
            <p>
              Notifications are blocked for this site in this browser. Allow them in the browser’s site settings, then reload this
              page.
            </p>
          </div>
          <noscript>
            <p>Adding a device needs JavaScript.</p>
          </noscript>
        </section>
        <h2 id="devices-heading">Your devices</h2>
        {view.devices.length === 0 ? (
          <p class="muted">No devices yet.</p>
        ) : (
          <ul class="plain-list" aria-labelledby="devices-heading">
            {view.devices.map((device) => (
              <DeviceRow device={device} csrf={view.csrf.remove} />
            ))}
          </ul>
        )}
        <h2>Settings</h2>
        <SettingsForm view={view} />
        <p class="back-link">
          <a href="/account">Back to your account</a>
        </p>
      </div>
    </Page>
  );
}

/** The notifications page as an HTML document string. */
export function renderNotificationsPage(view: NotificationsView, nonce: string): string {
  return toDocument(<NotificationsPage view={view} nonce={nonce} />);
}
