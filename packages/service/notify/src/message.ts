/*
 * What a notification says, the same on every channel: the form's title (the agent's words, in
 * the form's language), one line of why by kind, and the link; an e-mail adds its own lines.
 * Sess's own words come from @sess/web's catalogs, which notify may not import (it stays below
 * the pages): the worker is given a `NoticeTexts` (@sess/notify-pages' `noticeTexts`, wired by
 * apps/server) and builds every message through `composeMessage`.
 */

export type NotificationKind = 'form' | 'follow_up' | 'reminder' | 'ask_answer' | 'ask_closed';

export interface NotificationMessage {
  kind: NotificationKind;
  title: string;
  /** The one line of why, in `lang`. */
  body: string;
  url: string;
  /** The BCP 47 tag of the language Sess's words are in (`body`, `mailText`). */
  lang: string;
  /** The plain text of the e-mail. */
  mailText: string;
}

/** An Ask's counters at send time (ask kinds only). */
export interface AskProgress {
  answered: number;
  max: number;
  /** An Ask that decides, once decided: its outcome. */
  decision?: 'approved' | 'rejected' | undefined;
}

/**
 * Where a notice's language comes from, strongest first: `saved`, the recipient's own saved
 * choice (a person's language setting, when Sess stores one), then `content`, the language of
 * the form the notice is about (its `surface.locale`); English when Sess ships neither.
 */
export interface NoticeLanguage {
  saved?: string | null | undefined;
  content?: string | null | undefined;
}

/** What a notice is about: everything its words are made from. */
export interface NoticeFacts {
  kind: NotificationKind;
  title: string;
  url: string;
  ask: AskProgress | null;
  /** When the link lapses (said in the e-mail of a form, follow-up or reminder). */
  expiresAt: Date;
  /** The recipient's time zone, when they saved one; dates are otherwise in UTC, said so. */
  timeZone?: string | undefined;
  language: NoticeLanguage;
}

/** Sess's own words of one notice, in one language. */
export interface NoticeWords {
  lang: string;
  body: string;
  mailText: string;
}

/** Writes a notice's words (see the top of this file). */
export type NoticeTexts = (facts: NoticeFacts) => NoticeWords;

export function composeMessage(texts: NoticeTexts, facts: NoticeFacts): NotificationMessage {
  const words = texts(facts);
  return { kind: facts.kind, title: facts.title, url: facts.url, lang: words.lang, body: words.body, mailText: words.mailText };
}

/**
 * Push services take at most 4096 bytes of encrypted payload; aes128gcm adds 86 bytes of header
 * and tag plus a padding byte, so the plaintext stays under 3 KB with room to spare.
 */
export const MAX_PUSH_PAYLOAD_BYTES = 3 * 1024;

/**
 * What the service worker gets (JSON): `tag` is the Topic, so a later notification replaces it;
 * `lang` is the language of `body` (the notification is shown with it).
 */
export interface DevicePayload {
  v: 1;
  id: string;
  tag: string;
  kind: NotificationKind;
  title: string;
  body: string;
  url: string;
  lang: string;
}

/**
 * The device payload as JSON, under MAX_PUSH_PAYLOAD_BYTES: a long title is cut by code points
 * (never inside a character) and ends in an ellipsis. Null when even an empty title does not fit
 * (a link that long cannot be pushed).
 */
export function devicePayload(message: NotificationMessage, ids: { id: string; topic: string }): string | null {
  const encode = (title: string) =>
    JSON.stringify({
      v: 1,
      id: ids.id,
      tag: ids.topic,
      kind: message.kind,
      title,
      body: message.body,
      url: message.url,
      lang: message.lang,
    } satisfies DevicePayload);
  const full = encode(message.title);
  if (Buffer.byteLength(full, 'utf8') <= MAX_PUSH_PAYLOAD_BYTES) return full;
  const points = [...message.title];
  const fits = (keep: number) =>
    Buffer.byteLength(encode(`${points.slice(0, keep).join('')}…`), 'utf8') <= MAX_PUSH_PAYLOAD_BYTES;
  if (!fits(0)) return null;
  // The longest prefix that fits, by binary search over code points.
  let low = 0;
  let high = points.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return encode(`${points.slice(0, low).join('')}…`);
}
