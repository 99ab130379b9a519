/*
 * What a notification says, the same on every channel: the form's title, one line of why (by
 * kind), and the link. Push and e-mail both build from `composeMessage`.
 */

export type NotificationKind = 'form' | 'follow_up' | 'reminder' | 'ask_answer' | 'ask_closed';

export interface NotificationMessage {
  kind: NotificationKind;
  title: string;
  /** The one line of why. */
  body: string;
  url: string;
}

/** An Ask's counters at send time (ask kinds only). */
export interface AskProgress {
  answered: number;
  max: number;
  /** An Ask that decides, once decided: its outcome. */
  decision?: 'approved' | 'rejected' | undefined;
}

/** The line of why for `kind`; the Ask kinds tell the counts as they are when it is sent. */
export function bodyFor(kind: NotificationKind, ask: AskProgress | null): string {
  switch (kind) {
    case 'form':
      return 'Your agent is asking you something.';
    case 'follow_up':
      return 'Your agent has an update on this.';
    case 'reminder':
      return 'Still waiting for your answer; the link lapses soon.';
    case 'ask_answer':
      return `${ask?.answered ?? 0} of ${ask?.max ?? 0} answered.`;
    case 'ask_closed': {
      const n = ask?.answered ?? 0;
      const answers = `${n} ${n === 1 ? 'answer' : 'answers'}`;
      return ask?.decision ? `Decided: ${ask.decision}, with ${answers}.` : `Closed with ${answers}.`;
    }
  }
}

export function composeMessage(
  kind: NotificationKind,
  content: { title: string; url: string },
  ask: AskProgress | null,
): NotificationMessage {
  return { kind, title: content.title, body: bodyFor(kind, ask), url: content.url };
}

/**
 * Push services take at most 4096 bytes of encrypted payload; aes128gcm adds 86 bytes of header
 * and tag plus a padding byte, so the plaintext stays under 3 KB with room to spare.
 */
export const MAX_PUSH_PAYLOAD_BYTES = 3 * 1024;

/** What the service worker gets (JSON): `tag` is the Topic, so a later notification replaces it. */
export interface DevicePayload {
  v: 1;
  id: string;
  tag: string;
  kind: NotificationKind;
  title: string;
  body: string;
  url: string;
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
