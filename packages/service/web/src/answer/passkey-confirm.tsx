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
  return (
    <div class="card">
      {view.error === undefined ? null : (
        <div class="banner error" role="alert" id="error-summary" tabindex={-1}>
          <p class="status">Your answer was not sent</p>
          <p>{view.error}</p>
        </div>
      )}
      <p class="context" dir={textDir(view.surface.title)}>
        {view.surface.title}
      </p>
      <h1>Confirm with your passkey</h1>
      <p class="lead">
        This form must be confirmed by you, with your passkey. Your device asks for your fingerprint, face, PIN or screen lock,
        and the confirmation covers this answer and nothing else. Nothing is sent until you confirm.
      </p>
      <AnswerSummary answer={{ surface: view.surface, ...view.answer }} />
      <form method="post" action={view.form.action} id={PASSKEY_CONFIRM_ID} data-options={JSON.stringify(view.options)}>
        <input type="hidden" name={FORM_FIELDS.csrf} value={view.form.csrf} />
        <input type="hidden" name={FORM_FIELDS.revision} value={String(view.revision)} />
        {view.actionId === undefined ? null : <input type="hidden" name={FORM_FIELDS.action} value={view.actionId} />}
        <input type="hidden" name={FORM_FIELDS.passkey} value="" />
        <HiddenValues posted={view.posted} />
        <div class="actions">
          <button type="button" class="primary" data-passkey="" hidden>
            Confirm with your passkey
          </button>
          <a class="button secondary" href={view.form.action}>
            Change my answer
          </a>
        </div>
        <p role="status" aria-live="polite" />
        <p class="muted" data-passkey-fallback="">
          Confirming with a passkey needs JavaScript and a browser that supports passkeys.
        </p>
      </form>
    </div>
  );
}
