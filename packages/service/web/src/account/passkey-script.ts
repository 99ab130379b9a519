import type { Messages } from '../i18n/messages.ts';
import { CSRF_HEADER } from '../notifications/view.ts';

/**
 * The script's status messages, in the page's language, as data attributes of the section it
 * wires (the script has no catalog of its own): spread them onto that section.
 */
export function passkeyScriptMessages(m: Messages): Record<string, string> {
  return {
    'data-msg-failed': m.t('account.passkeyScript.failed'),
    'data-msg-cancelled': m.t('account.passkeyScript.cancelled'),
    'data-msg-exists': m.t('account.passkeyScript.exists'),
    'data-msg-unsupported': m.t('account.passkeyScript.unsupported'),
    'data-msg-working': m.t('account.passkeyScript.working'),
  };
}

/**
 * What every passkey script needs: base64url ⇄ bytes, the request options made browser-ready
 * (`request`, `creation`) and a credential back as the JSON @simplewebauthn/server reads
 * (`credentialJson`). Shared with the answer page's confirm step (../answer/passkey-confirm-script.ts).
 */
export const WEBAUTHN_HELPERS = `  const toBytes = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  };
  const toText = (buffer) => {
    let binary = '';
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  };
  const descriptors = (list) => (list || []).map((d) => ({ ...d, id: toBytes(d.id) }));
  const creation = (o) => ({ ...o, challenge: toBytes(o.challenge), user: { ...o.user, id: toBytes(o.user.id) }, excludeCredentials: descriptors(o.excludeCredentials) });
  const request = (o) => ({ ...o, challenge: toBytes(o.challenge), allowCredentials: descriptors(o.allowCredentials) });
  function credentialJson(credential) {
    const r = credential.response;
    const response = { clientDataJSON: toText(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toText(r.attestationObject);
      response.transports = typeof r.getTransports === 'function' ? r.getTransports() : [];
    } else {
      response.authenticatorData = toText(r.authenticatorData);
      response.signature = toText(r.signature);
      if (r.userHandle) response.userHandle = toText(r.userHandle);
    }
    return { id: credential.id, rawId: toText(credential.rawId), type: credential.type, response,
      clientExtensionResults: typeof credential.getClientExtensionResults === 'function' ? credential.getClientExtensionResults() : {} };
  }`;

/**
 * The one script of the passkey pages: "Add a passkey" on `/account/passkeys` and "Sign in with
 * a passkey" on `/signin`. Hand-written rather than @simplewebauthn/browser bundled in: the
 * pages carry one inline script under their CSP nonce, and all the library does for us is turn
 * the options' base64url strings into bytes and the credential back into JSON, which is the few
 * lines below (and works in every browser with WebAuthn, where the newer
 * `PublicKeyCredential.parseCreationOptionsFromJSON` / `toJSON` are not everywhere yet).
 *
 * Each button's section carries its routes and CSRF token as data attributes: the script
 * POSTs for options (CSRF token in a header), runs the ceremony, POSTs the credential as JSON
 * and follows the server's answer; a refusal's message is shown as text.
 */
export const PASSKEY_SCRIPT = `(() => {
  const header = ${JSON.stringify(CSRF_HEADER)};
${WEBAUTHN_HELPERS}
  const said = (root, name) => root.dataset[name] || '';
  async function post(url, csrf, body, root) {
    const response = await fetch(url, { method: 'POST', credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [header]: csrf }, body: JSON.stringify(body) });
    let json = null;
    try { json = await response.json(); } catch {}
    if (!response.ok) {
      const message = json && json.error && typeof json.error.message === 'string' ? json.error.message : said(root, 'msgFailed');
      throw Object.assign(new Error('refused'), { shown: message });
    }
    return json;
  }
  function wire(root, run) {
    const button = root.querySelector('button[data-passkey]');
    const status = root.querySelector('[role=status]');
    if (!button || !status) return;
    // Without WebAuthn the button stays hidden (and the page's fallback line stays shown).
    if (!window.PublicKeyCredential || !navigator.credentials) return;
    for (const element of root.querySelectorAll('[data-passkey-field]')) element.hidden = false;
    for (const element of root.querySelectorAll('[data-passkey-fallback]')) element.hidden = true;
    button.hidden = false;
    button.addEventListener('click', () => {
      button.disabled = true;
      status.textContent = said(root, 'msgWorking');
      run(root).catch((error) => {
        status.textContent = error && error.shown ? error.shown
          : error && error.name === 'NotAllowedError' ? said(root, 'msgCancelled')
          : error && error.name === 'InvalidStateError' ? said(root, 'msgExists')
          : said(root, 'msgUnsupported');
      }).finally(() => { button.disabled = false; });
    });
  }
  const register = document.getElementById('passkey-register');
  if (register) wire(register, async (root) => {
    const name = document.getElementById('passkey-name');
    const options = await post(root.dataset.options, root.dataset.csrf, {}, root);
    const credential = await navigator.credentials.create({ publicKey: creation(options) });
    await post(root.dataset.action, root.dataset.csrf, { name: name ? name.value : '', response: credentialJson(credential) }, root);
    location.assign(location.pathname + '?added=1');
  });
  const signIn = document.getElementById('passkey-signin');
  if (signIn) wire(signIn, async (root) => {
    const options = await post(root.dataset.options, root.dataset.csrf, {}, root);
    const credential = await navigator.credentials.get({ publicKey: request(options) });
    const done = await post(root.dataset.action, root.dataset.csrf, { response: credentialJson(credential), return_to: root.dataset.returnTo }, root);
    location.assign(done.redirect);
  });
})();`;
