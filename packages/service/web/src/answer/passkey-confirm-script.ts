import { WEBAUTHN_HELPERS } from '../account/passkey-script.ts';
import { FORM_FIELDS } from './answer-form.tsx';
import { PASSKEY_CONFIRM_ID } from './passkey-confirm.tsx';

/**
 * The confirm step's script: "Confirm with your passkey" runs `navigator.credentials.get` with
 * the request options the page carries (bound by the server to this session, revision and
 * answer), puts the assertion's JSON in the form's `_passkey` input and posts the form, with the
 * same values, as an ordinary form post (CSRF token and all). The server verifies it; a refusal
 * comes back as this page again with its message. A cancelled or failed ceremony says so here.
 */
export const PASSKEY_CONFIRM_SCRIPT = `(() => {
${WEBAUTHN_HELPERS}
  const form = document.getElementById(${JSON.stringify(PASSKEY_CONFIRM_ID)});
  if (!form) return;
  const summary = document.getElementById('error-summary');
  if (summary) summary.focus();
  const button = form.querySelector('button[data-passkey]');
  const status = form.querySelector('[role=status]');
  if (!button || !status || !window.PublicKeyCredential || !navigator.credentials) return;
  for (const element of form.querySelectorAll('[data-passkey-fallback]')) element.hidden = true;
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = '';
    try {
      const credential = await navigator.credentials.get({ publicKey: request(JSON.parse(form.dataset.options)) });
      form.elements.namedItem(${JSON.stringify(FORM_FIELDS.passkey)}).value = JSON.stringify(credentialJson(credential));
      form.submit();
    } catch (error) {
      // The sentences come in the page's language, on the form (data-cancelled, data-failed).
      status.textContent = error && error.name === 'NotAllowedError' ? form.dataset.cancelled : form.dataset.failed;
      button.disabled = false;
    }
  });
})();`;
