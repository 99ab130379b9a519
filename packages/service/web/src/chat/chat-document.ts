import { createHash } from 'node:crypto';
import { messagesFor } from '../i18n/messages.ts';
import { STYLESHEET } from '../stylesheet.ts';
import { CHAT_VIEW_SCRIPT } from './chat-script.ts';
import { CHAT_STYLE } from './chat-style.ts';

/*
 * The chat view's UI resource: one self-contained document (the one stylesheet and the chat's
 * additions inline, the script inline, nothing from any origin), so it works under the hosts'
 * default CSP (`default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';
 * img-src data:; connect-src 'none'`). It holds no data: everything it shows comes in a tool
 * result's `_meta`. A constant, the same bytes for every person: it starts in English and its
 * script switches to the chat's language (chat-script.ts).
 */
const english = messagesFor('en');

export const CHAT_VIEW_DOCUMENT = [
  '<!doctype html><html lang="en" class="chat-doc"><head><meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="referrer" content="no-referrer"><title>Sess</title>',
  `<style>${STYLESHEET}${CHAT_STYLE}</style></head>`,
  '<body><main>',
  // The live region is always there (a region that appears with its text is often not read out).
  '<div role="status" aria-live="polite"><p class="banner warn chat-note" id="sess-note" hidden></p></div>',
  `<div id="sess-view"><p class="muted" id="sess-loading">${english.t('chat.document.loading')}</p></div>`,
  `</main><script>${CHAT_VIEW_SCRIPT}</script></body></html>`,
].join('');

/** The first 12 hex digits of the document's SHA-256: the `ui://` URI's version, so no host serves a stale copy. */
export const CHAT_VIEW_VERSION = createHash('sha256').update(CHAT_VIEW_DOCUMENT).digest('hex').slice(0, 12);
