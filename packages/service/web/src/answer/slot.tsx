import type { Child } from 'hono/jsx';

/** A private-use character that stands in a formatted message for the one placeholder drawn as markup. */
export const SLOT = '\uE000';

/**
 * A catalog message with one placeholder drawn as markup (someone else's text in a `<bdi>`, a
 * command in `<code>`): the message is formatted with `SLOT` as that placeholder's value, and
 * `slot` is put where it landed, so the sentence stays whole in every language.
 */
export function withSlot(text: string, slot: Child): Child {
  const at = text.indexOf(SLOT);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      {slot}
      {text.slice(at + SLOT.length)}
    </>
  );
}
