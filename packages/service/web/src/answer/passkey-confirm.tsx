import { passkeyRefusalText } from '../account/passkey-refusal.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { textDir } from '../isolate.tsx';
import { FORM_FIELDS } from './answer-form.tsx';
import { AnswerSummary } from './own-answer.tsx';
import type { PasskeyConfirmPageView } from './view.ts';

/** The id the confirm step's script looks for (passkey-confirm-script.ts). */
export const PASSKEY_CONFIRM_ID = 'passkey-confirm';

/** The posted values again, as hidden inputs (a list repeats its name, as the form posted it). */
function HiddenValues({ posted }: { posted: PasskeyConfirmPageView['posted'] }) {
  return (
    <>
      {Object.entries(posted).flatMap(([name, value]) =>
        (typeof value === 'string' ? [value] : value).map((one) => <input type="hidden" name={name} value={one} />),
      )}
    </>
  );
}

/**
 * "Confirm with your passkey": the answer in short, exactly as it will be sent, and one button
 * that runs the passkey ceremony bound to it; the script posts the same values with the
 * assertion. Without JavaScript (or WebAuthn) the button stays hidden and the page says why.
 */
export function PasskeyConfirm({ view }: { view: PasskeyConfirmPageView }) {
  const m = useMessages();
  const locale = view.surface.locale;
  return (
    <div class="card">
      {view.refusal === undefined ? null : (
        <div class="banner error" role="alert" id="error-summary" tabindex={-1}>
          <p class="status">{m.t('answer.passkey.notSent')}</p>
          <p>{passkeyRefusalText(m, view.refusal)}</p>
        </div>
      )}
      <p class="context" dir={textDir(view.surface.title)} lang={locale}>
        {view.surface.title}
      </p>
      <h1>{m.t('answer.passkey.heading')}</h1>
      <p class="lead">{m.t('answer.passkey.lead')}</p>
      <AnswerSummary answer={{ surface: view.surface, ...view.answer }} />
      <form
        method="post"
        action={view.form.action}
        id={PASSKEY_CONFIRM_ID}
        data-options={JSON.stringify(view.options)}
        data-cancelled={m.t('answer.passkey.cancelled')}
        data-failed={m.t('answer.passkey.failed')}
      >
        <input type="hidden" name={FORM_FIELDS.csrf} value={view.form.csrf} />
        <input type="hidden" name={FORM_FIELDS.revision} value={String(view.revision)} />
        {view.actionId === undefined ? null : <input type="hidden" name={FORM_FIELDS.action} value={view.actionId} />}
        <input type="hidden" name={FORM_FIELDS.passkey} value="" />
        <HiddenValues posted={view.posted} />
        <div class="actions">
          <button type="button" class="primary" data-passkey="" hidden>
            {m.t('answer.passkey.confirm')}
          </button>
          <a class="button secondary" href={view.form.action}>
            {m.t('answer.passkey.change')}
          </a>
        </div>
        <p role="status" aria-live="polite" />
        <p class="muted" data-passkey-fallback="">
          {m.t('answer.passkey.needsScript')}
        </p>
      </form>
    </div>
  );
}
