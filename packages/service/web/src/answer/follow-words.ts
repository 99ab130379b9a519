import type { Messages } from '../i18n/messages.ts';

/**
 * The follow script's sentences (follow-script.ts) in the page's language, as the JSON of the
 * open form's `data-follow-words`: for each state the script may report, the sentence, then its
 * button's label. Sess's own words only.
 */
export function followWords(m: Messages): string {
  let json = byLanguage.get(m.tag);
  if (json === undefined) {
    json = build(m);
    byLanguage.set(m.tag, json);
  }
  return json;
}

/** The same words for every page in a language: built once per language. */
const byLanguage = new Map<string, string>();

function build(m: Messages): string {
  const show = m.t('answer.follow.show');
  return JSON.stringify({
    open: [m.t('answer.follow.newStep'), m.t('answer.follow.loadNewStep')],
    answered: [m.t('answer.follow.answered'), show],
    completed: [m.t('answer.follow.completed'), show],
    withdrawn: [m.t('answer.follow.withdrawn'), show],
    lapsed: [m.t('answer.follow.lapsed'), m.t('answer.follow.showWhatToDo')],
    expired: [m.t('answer.follow.expired'), show],
  });
}
