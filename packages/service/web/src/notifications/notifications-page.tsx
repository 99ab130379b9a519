import { AccountHeader } from '../account/account-page.tsx';
import { CsrfField, FormError, Notice, toDocument } from '../account/parts.tsx';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { NOTIFY_SCRIPT, notifyScriptTexts } from './notify-script.ts';
import { type DeviceView, NOTIFY_FORM_FIELDS as F, NOTIFY_PATHS, type NotificationsView } from './view.ts';

function DeviceRow({ device, csrf }: { device: DeviceView; csrf: string }) {
  const m = useMessages();
  const dates = [
    m.t('notify.devices.added', { date: m.dateTime(device.createdAt) }),
    device.lastDeliveryAt
      ? m.t('notify.devices.lastDelivery', { date: m.dateTime(device.lastDeliveryAt) })
      : m.t('notify.devices.noDelivery'),
    ...(device.lastFailureAt ? [m.t('notify.devices.lastFailure', { date: m.dateTime(device.lastFailureAt) })] : []),
  ];
  return (
    <li class="device">
      <div>
        <span class="name">
          <Isolate text={device.name} />
        </span>
        <ul class="muted device-when">
          {dates.map((line) => (
            <li>{line}</li>
          ))}
        </ul>
      </div>
      <form method="post" action={NOTIFY_PATHS.removeDevice}>
        <CsrfField token={csrf} />
        <input type="hidden" name={F.device} value={device.id} />
        <button type="submit" class="danger" aria-label={m.t('notify.devices.removeLabel', { name: device.name })}>
          {m.t('notify.devices.remove')}
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

function SettingsForm({ view }: { view: NotificationsView }) {
  const m = useMessages();
  const askChoices = [
    ['each_answer', m.t('notify.settings.askEach')],
    ['closed', m.t('notify.settings.askClosed')],
    ['off', m.t('notify.settings.askOff')],
  ] as const;
  const s = view.settings;
  const invalid = (field: string) => (view.error?.field.startsWith(field) ? 'true' : undefined);
  return (
    <form method="post" action={NOTIFY_PATHS.settings} aria-describedby={view.error ? 'settings-error' : undefined}>
      <CsrfField token={view.csrf.settings} />
      <fieldset>
        <legend>{m.t('notify.settings.channels')}</legend>
        <Check id="push" name={F.push} checked={s.push} label={m.t('notify.settings.push')} />
        <Check
          id="email"
          name={F.email}
          checked={s.email}
          label={m.t('notify.settings.email')}
          hint={view.emailConfigured ? m.t('notify.settings.emailHint') : m.t('notify.settings.emailMissing')}
        />
      </fieldset>
      <fieldset>
        <legend>{m.t('notify.settings.quiet')}</legend>
        <Check
          id="quiet"
          name={F.quiet}
          checked={s.quiet}
          label={m.t('notify.settings.quietCheck')}
          hint={m.t('notify.settings.quietHint')}
        />
        <div class="quiet-times">
          <div class="field">
            <label for="quiet-from">{m.t('notify.settings.from')}</label>
            <input id="quiet-from" type="time" name={F.quietFrom} value={s.quietFrom} aria-invalid={invalid('/quietHours')} />
          </div>
          <div class="field">
            <label for="quiet-to">{m.t('notify.settings.to')}</label>
            <input id="quiet-to" type="time" name={F.quietTo} value={s.quietTo} aria-invalid={invalid('/quietHours')} />
          </div>
        </div>
        <div class="field">
          <label for="time-zone">{m.t('notify.settings.timeZone')}</label>
          <p class="hint" id="time-zone-hint">
            {m.t('notify.settings.timeZoneHint')}
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
        <legend>{m.t('notify.settings.reminders')}</legend>
        <Check id="reminders" name={F.reminders} checked={s.reminders} label={m.t('notify.settings.remindersCheck')} />
      </fieldset>
      <fieldset aria-describedby="ask-hint">
        <legend>{m.t('notify.settings.ask')}</legend>
        <p class="hint" id="ask-hint">
          {m.t('notify.settings.askHint')}
        </p>
        {askChoices.map(([value, label]) => (
          <div class="choice">
            <input type="radio" id={`ask-${value}`} name={F.askUpdates} value={value} checked={s.askUpdates === value} />
            <label for={`ask-${value}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>{m.t('notify.settings.apiKeys')}</legend>
        <Check
          id="api-key-forms"
          name={F.apiKeyForms}
          checked={s.apiKeyForms}
          label={m.t('notify.settings.apiKeyCheck')}
          hint={m.t('notify.settings.apiKeyHint')}
        />
      </fieldset>
      <div class="actions">
        <button type="submit">{m.t('notify.settings.save')}</button>
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
  const m = useMessages();
  return (
    <Page title={m.t('notify.page.title')} nonce={nonce} script={NOTIFY_SCRIPT} webApp>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <h1>{m.t('notify.page.heading')}</h1>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.error ? <FormError id="settings-error" message={view.error.message} /> : null}
        <p class="lead">{m.t('notify.page.lead')}</p>
        <section
          id="notify-device"
          aria-labelledby="this-device-heading"
          data-vapid-key={view.vapidPublicKey}
          data-csrf={view.csrf.device}
          data-action={NOTIFY_PATHS.devices}
          data-zone-unsaved={view.settingsUnsaved ? 'true' : 'false'}
          data-texts={JSON.stringify(notifyScriptTexts(m))}
        >
          <h2 id="this-device-heading">{m.t('notify.device.heading')}</h2>
          <div class="field" id="device-name-field" hidden>
            <label for="device-name">{m.t('notify.device.nameLabel')}</label>
            <p class="hint" id="device-name-hint">
              {m.t('notify.device.nameHint')}
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
            {m.t('notify.device.button')}
          </button>
          <p id="notify-status" class="copy-status" role="status" aria-live="polite" />
          <div id="notify-ios" class="banner warn" hidden>
            <p>
              <strong>{m.t('notify.device.iosTitle')}</strong>
            </p>
            <ol>
              <li>{m.t('notify.device.iosShare')}</li>
              <li>{m.t('notify.device.iosOpen')}</li>
              <li>{m.t('notify.device.iosTap')}</li>
            </ol>
            <p>{m.t('notify.device.iosVersion')}</p>
          </div>
          <div id="notify-insecure" class="banner warn" hidden>
            <p>{m.t('notify.device.insecure')}</p>
          </div>
          <div id="notify-unsupported" class="banner warn" hidden>
            <p>{m.t('notify.device.unsupported')}</p>
          </div>
          <div id="notify-denied" class="banner warn" hidden>
            <p>{m.t('notify.device.denied')}</p>
          </div>
          <noscript>
            <p>{m.t('notify.device.noScript')}</p>
          </noscript>
        </section>
        <h2 id="devices-heading">{m.t('notify.devices.heading')}</h2>
        {view.devices.length === 0 ? (
          <p class="muted">{m.t('notify.devices.none')}</p>
        ) : (
          <ul class="plain-list" aria-labelledby="devices-heading">
            {view.devices.map((device) => (
              <DeviceRow device={device} csrf={view.csrf.remove} />
            ))}
          </ul>
        )}
        <h2>{m.t('notify.settings.heading')}</h2>
        <SettingsForm view={view} />
        <p class="back-link">
          <a href="/account">{m.t('notify.page.back')}</a>
        </p>
      </div>
    </Page>
  );
}

/** The notifications page as an HTML document string. */
export function renderNotificationsPage(view: NotificationsView, nonce: string): string {
  return toDocument(<NotificationsPage view={view} nonce={nonce} />);
}
