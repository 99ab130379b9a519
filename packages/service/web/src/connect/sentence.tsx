import type { Child } from 'hono/jsx';
import type { MessageKey } from '../i18n/catalog-types.ts';
import type { Messages, MessageValues } from '../i18n/messages.ts';

/*
 * A translated sentence with markup inside it (an app's name in <strong>, a file name in
 * <code>, a link): the message is formatted with a private-use marker for each part, then cut at
 * the markers and the parts put in their places. The sentence stays one catalog message, so a
 * translation can move the parts wherever its grammar needs them. Text someone else wrote goes
 * in as a part, never as a value, so it can never hold a marker.
 */

const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKER = /\uE000(\d+)\uE001/;

/** `m.t(key, values)` with each of `parts` (JSX) standing where its `{name}` stands in the message. */
export function sentence(m: Messages, key: MessageKey, parts: Record<string, Child>, values: MessageValues = {}): Child[] {
  const names = Object.keys(parts);
  const markers = Object.fromEntries(names.map((name, index) => [name, `${OPEN}${index}${CLOSE}`]));
  const pieces = m.t(key, { ...values, ...markers }).split(MARKER);
  // split with a capture group: text, index, text, index, …, text.
  return pieces.map((piece, index) => (index % 2 === 0 ? piece : parts[names[Number(piece)] ?? ''])).filter((p) => p !== '');
}

/** `parts` joined as a list in the page's language (`a, b and c`), each part kept as it is (markup and all). */
export function listOf(m: Messages, parts: readonly Child[]): Child[] {
  const pieces = m.list(parts.map((_, index) => `${OPEN}${index}${CLOSE}`)).split(MARKER);
  return pieces.map((piece, index) => (index % 2 === 0 ? piece : parts[Number(piece)])).filter((p) => p !== '');
}
