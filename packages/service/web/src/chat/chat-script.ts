import { shippedLanguages } from '../i18n/languages.ts';
import { messagesFor } from '../i18n/messages.ts';

/** The script's sentences in one language (`openLink` keeps its `{url}` for the script to fill in). */
function chatScriptTexts(tag: string) {
  const m = messagesFor(tag);
  return {
    dir: m.dir,
    loading: m.t('chat.document.loading'),
    unavailable: m.t('chat.script.unavailable'),
    noHost: m.t('chat.script.noHost'),
    empty: m.t('chat.script.empty'),
    sending: m.t('chat.script.sending'),
    continue: m.t('chat.script.continue'),
    notSent: m.t('chat.script.notSent'),
    sendFailed: m.t('chat.script.sendFailed'),
    openLink: m.t('chat.script.openLink', { url: '{url}' }),
  };
}

/**
 * Every shipped language's sentences, as a script literal: the document is the same bytes for
 * every person, so the script carries them all and picks one (a few kilobytes).
 */
const TEXTS_LITERAL = JSON.stringify(
  Object.fromEntries(shippedLanguages().map((language) => [language.tag, chatScriptTexts(language.tag)])),
).replace(/</g, '\\u003c');

/**
 * The one script of the chat view (an MCP App, `io.modelcontextprotocol/ui`): a few kilobytes of
 * hand-written JSON-RPC over postMessage with the host, instead of ext-apps' `App` class (500 KB
 * bundled). It
 * - performs the `ui/initialize` handshake (a host such as Claude draws nothing without it), and
 *   follows the host's theme, platform and display mode (`data-theme`, `data-platform` on <html>);
 * - draws the payload at `_meta['si.sess/view']` of each tool result (see payload.ts): its `html`
 *   is the server's own rendering of the Surface (renderChatFragment, escaped by hono/jsx); any
 *   other result shows its text content as text;
 * - sends the form as a browser posts it (a string, or a list for a repeated name) through the
 *   app-only tool `sess_view_answer`, buttons disabled while it is in flight, and draws the
 *   payload the result carries (errors at fields come rendered by the server);
 * - once an answer it saw arrive is in (sent here, or the open form was answered meanwhile), tells
 *   the agent (`ui/message`, else `ui/update-model-context`) and, when the host would not take the
 *   message, asks the person to say "continue";
 * - asks `sess_view_status` for news with backoff (3 s ×1.5 up to 30 s, one call at a time, none
 *   while the document is hidden) and redraws only when the state or revision changed, so what
 *   the person is typing is never lost to a poll;
 * - opens links that leave the iframe (`data-open-link`: "Answer on my phone", the receipt) with
 *   `ui/open-link`, and reports its height (`ui/notifications/size-changed`) so the host fits it
 *   without a nested scroll.
 * It writes only its own fixed sentences and the text of a result through `textContent`. Its
 * sentences are in the chat's language: the form's (`data-form-lang` on the drawn fragment, set
 * when Sess ships the form's `surface.locale`), else the host's (`hostContext.locale`), else
 * English; `<html lang dir>` follows (the fragment carries its own `lang` for its content).
 */
export const CHAT_VIEW_SCRIPT = `(() => {
  const KEY = 'si.sess/view';
  const root = document.documentElement;
  const view = document.getElementById('sess-view');
  const note = document.getElementById('sess-note');
  const FIRST_DELAY = 3000;
  const MAX_DELAY = 30000;
  const MAX_FAILURES = 5;
  let nextId = 1;
  const pending = new Map();
  let host = {};
  let current = null;
  let timer = 0;
  let delay = FIRST_DELAY;
  let failures = 0;
  let inFlight = false;
  const told = new Set();
  const TEXTS = ${TEXTS_LITERAL};
  let lang = 'en';
  let formLang = '';
  let hostLang = '';
  const T = () => TEXTS[lang] || TEXTS.en;

  /** A shipped language for a BCP 47 tag (\`de-AT\` → \`de\`), or ''. */
  function shipped(tag) {
    if (typeof tag !== 'string' || tag === '') return '';
    const lower = tag.toLowerCase();
    if (TEXTS[lower]) return lower;
    const primary = lower.split('-')[0];
    return TEXTS[primary] ? primary : '';
  }
  /** The chat's language: the form's, else the host's, else English; on <html> and the loading line. */
  function applyLanguage() {
    lang = formLang || hostLang || 'en';
    root.setAttribute('lang', lang);
    root.setAttribute('dir', T().dir);
    const loading = document.getElementById('sess-loading');
    if (loading) loading.textContent = T().loading;
  }

  function post(message) { window.parent.postMessage(message, '*'); }
  function notify(method, params) { post(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }); }
  function request(method, params, timeout) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timeoutId = timeout ? setTimeout(() => { pending.delete(id); reject(new Error('timeout')); }, timeout) : 0;
      pending.set(id, { resolve, reject, timeoutId });
      post({ jsonrpc: '2.0', id, method, params });
    });
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return;
    if (m.method === undefined) {
      const waiting = pending.get(m.id);
      if (!waiting) return;
      pending.delete(m.id);
      clearTimeout(waiting.timeoutId);
      if (m.error) waiting.reject(m.error);
      else waiting.resolve(m.result);
      return;
    }
    if (m.id !== undefined) {
      // Requests from the host: a ping and the teardown are answered; nothing else is offered.
      if (m.method === 'ping' || m.method === 'ui/resource-teardown') post({ jsonrpc: '2.0', id: m.id, result: {} });
      else post({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    try {
      if (m.method === 'ui/notifications/tool-result') received(m.params);
      else if (m.method === 'ui/notifications/host-context-changed') applyContext(m.params);
    } catch (error) {
      showText(T().unavailable);
    }
  });

  function applyContext(context) {
    if (!context || typeof context !== 'object') return;
    if (context.theme === 'dark' || context.theme === 'light') root.setAttribute('data-theme', context.theme);
    if (typeof context.platform === 'string') root.setAttribute('data-platform', context.platform);
    if (typeof context.displayMode === 'string') root.setAttribute('data-display-mode', context.displayMode);
    if (typeof context.locale === 'string') { hostLang = shipped(context.locale); applyLanguage(); }
    const variables = context.styles && context.styles.variables;
    const font = variables && variables['--font-sans'];
    if (typeof font === 'string' && font !== '') root.style.setProperty('--font-sans', font);
    resized();
  }

  function payloadOf(result) {
    const p = result && result._meta && result._meta[KEY];
    if (!p || typeof p !== 'object' || p.v !== 1 || typeof p.html !== 'string' || typeof p.handle !== 'string' || typeof p.revision !== 'number') return null;
    return p;
  }
  function textOf(result) {
    const content = result && Array.isArray(result.content) ? result.content : [];
    return content.filter((c) => c && c.type === 'text' && typeof c.text === 'string').map((c) => c.text).join('\\n\\n');
  }
  function same(a, b) { return a && b && a.handle === b.handle && a.state === b.state && a.revision === b.revision; }

  /** The status line (inside the live region): a warning, or \`info\` for news that is no problem. */
  function say(text, tone) {
    note.textContent = text;
    note.className = 'banner ' + (tone === 'info' ? '' : 'warn ') + 'chat-note';
    note.hidden = text === '';
    resized();
  }
  function showText(text) {
    const card = document.createElement('div');
    card.className = 'card';
    const p = document.createElement('p');
    p.className = 'pre';
    p.textContent = text || T().empty;
    card.append(p);
    view.replaceChildren(card);
    current = null;
    schedule(true);
    resized();
  }

  /** Draws a payload; the form stays as it is when the state and revision did not change. */
  function draw(p, force) {
    const changed = force || !same(p, current);
    // The agent is told only of an answer this view saw arrive (sent here, or the form it showed
    // open was answered meanwhile), never of an old one when a chat is opened again later.
    const live = force || (current !== null && current.handle === p.handle && current.state === 'open');
    if (changed) {
      if (!same(p, current)) say('');
      // After the person's own answer focus always follows (its disabled button had dropped it).
      const focused = force || (current !== null && view.contains(document.activeElement));
      view.innerHTML = p.html;
      const frame = view.querySelector('[data-form-lang]');
      formLang = shipped(frame ? frame.getAttribute('data-form-lang') : '');
      applyLanguage();
      // Focus follows the news for a screen reader, as the answer page's swap does: the errors
      // after a refused answer, else the new heading.
      const summary = force ? view.querySelector('#error-summary') : null;
      const heading = view.querySelector('h1');
      if (summary) summary.focus({ preventScroll: true });
      else if (focused && heading) {
        heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
    }
    current = p;
    if (live && p.state === 'answered' && typeof p.message === 'string' && p.message !== '') tellAgent(p);
    resized();
    return changed;
  }

  function received(result) {
    const p = payloadOf(result);
    if (!p) return showText(textOf(result));
    draw(p, false);
    failures = 0;
    schedule(true);
  }

  async function tellAgent(p) {
    const key = p.handle + ' ' + p.revision;
    if (told.has(key)) return;
    told.add(key);
    const content = [{ type: 'text', text: p.message }];
    if (host.message) {
      try {
        const result = await request('ui/message', { role: 'user', content });
        if (!(result && result.isError)) return;
      } catch (error) {}
    }
    if (host.updateModelContext) {
      try { await request('ui/update-model-context', { content }); } catch (error) {}
    }
    say(T().continue);
  }

  function buttons(on) {
    for (const button of view.querySelectorAll('button')) button.disabled = !on;
  }

  /** The form's values as a browser posts them: one string, or a list for a repeated name. */
  function valuesOf(form, submitter) {
    const values = {};
    for (const [name, value] of new FormData(form, submitter || undefined)) {
      if (name.charAt(0) === '_' || typeof value !== 'string') continue;
      const had = values[name];
      values[name] = had === undefined ? value : Array.isArray(had) ? had.concat(value) : [had, value];
    }
    return values;
  }

  document.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !view.contains(form)) return;
    event.preventDefault();
    if (inFlight || !current || !current.token) return;
    const submitter = event.submitter || form.querySelector('button[type="submit"]');
    const asked = current;
    const args = {
      handle: asked.handle,
      revision: asked.revision,
      token: asked.token,
      action_id: submitter && submitter.value ? submitter.value : 'submit',
      values: valuesOf(form, event.submitter),
    };
    inFlight = true;
    buttons(false);
    say(T().sending, 'info');
    try {
      const result = await request('tools/call', { name: 'sess_view_answer', arguments: args }, 60000);
      inFlight = false;
      const p = payloadOf(result);
      if (p) {
        say('');
        draw(p, true);
        failures = 0;
        schedule(true);
      } else {
        buttons(true);
        say(textOf(result) || T().notSent);
        schedule(true);
      }
    } catch (error) {
      inFlight = false;
      buttons(true);
      say(T().sendFailed);
      // Polls wait while an answer is in flight; they carry on (it may have arrived after all).
      schedule(true);
    }
  }, true);

  function schedule(reset) {
    clearTimeout(timer);
    timer = 0;
    if (reset) delay = FIRST_DELAY;
    if (!current || !current.poll || !current.token || failures >= MAX_FAILURES || document.hidden) return;
    timer = setTimeout(poll, delay);
  }
  async function poll() {
    timer = 0;
    if (inFlight || document.hidden || !current || !current.poll || !current.token) return;
    const asked = current;
    let changed = false;
    try {
      const result = await request('tools/call', {
        name: 'sess_view_status',
        arguments: { handle: asked.handle, revision: asked.revision, token: asked.token },
      }, 30000);
      // An answer sent or a new result meanwhile: that one is newer than this reply.
      if (current !== asked || inFlight) return;
      const p = payloadOf(result);
      if (p) { changed = draw(p, false); failures = 0; }
      else failures += 1;
    } catch (error) {
      if (current !== asked) return;
      failures += 1;
    }
    delay = changed ? FIRST_DELAY : Math.min(MAX_DELAY, Math.round(delay * 1.5));
    schedule(false);
  }
  document.addEventListener('visibilitychange', () => { if (!document.hidden && !timer) schedule(false); });

  async function openLink(url) {
    try {
      const result = await request('ui/open-link', { url });
      if (!(result && result.isError)) return;
    } catch (error) {}
    say(T().openLink.replace('{url}', () => url));
  }
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link) return;
    const href = link.getAttribute('href') || '';
    if (href.charAt(0) === '#') {
      // An error's link to its field: move there without navigating the frame.
      event.preventDefault();
      const target = document.getElementById(decodeURIComponent(href.slice(1)));
      if (target) { target.scrollIntoView({ block: 'center' }); target.focus(); }
      return;
    }
    if (link.hasAttribute('data-open-link')) {
      event.preventDefault();
      openLink(link.href);
    }
  });

  let reported = 0;
  function resized() {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === reported) return;
    reported = height;
    notify('ui/notifications/size-changed', { height });
  }
  new ResizeObserver(resized).observe(document.body);

  request('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'sess', version: '1.0.0' },
    appCapabilities: {},
  }).then((result) => {
    host = (result && result.hostCapabilities) || {};
    applyContext(result && result.hostContext);
    notify('ui/notifications/initialized');
    resized();
  }, () => {
    showText(T().noHost);
  });
})();`;
