import { IntlMessageFormat } from 'intl-messageformat';

/*
 * The words Sess itself writes into a form (not the agent's): the "Your name" field of an Ask,
 * a deciding Ask's rule and buttons, the backup line. They are part of the form every person
 * reads and each receipt signs, so they are written in the form's language (its `locale`) when
 * Sess has it, else in English. ICU messages, like the pages' catalogs in @sess/web; that
 * catalog test checks these too (same keys in every language, same placeholders).
 */

const en = {
  'form.yourName': 'Your name',
  'form.approve': 'Approve',
  'form.reject': 'Reject',
  'form.decide.any': 'How this is decided: the first answer decides, Approve or Reject.',
  'form.decide.allOne': 'How this is decided: the one person asked decides.',
  'form.decide.all': 'How this is decided: all {max} people must approve; one Reject decides.',
  'form.decide.quorum':
    'How this is decided: approved when {approveAt, plural, one {# person} other {# people}} of {max} approve; rejected when {rejectAt, plural, one {# person} other {# people}} reject.',
  'form.escalate':
    'If this is still open {after} after it was sent, {backups, plural, one {a backup person is} other {# backup people are}} asked too, and may answer in place of anyone who has not.',
} as const;

type FormWords = { readonly [Key in keyof typeof en]: string };

const de: FormWords = {
  'form.yourName': 'Ihr Name',
  'form.approve': 'Zustimmen',
  'form.reject': 'Ablehnen',
  'form.decide.any': 'So wird entschieden: Die erste Antwort entscheidet, Zustimmen oder Ablehnen.',
  'form.decide.allOne': 'So wird entschieden: Die eine gefragte Person entscheidet.',
  'form.decide.all': 'So wird entschieden: Alle {max} Personen müssen zustimmen; eine Ablehnung entscheidet.',
  'form.decide.quorum':
    'So wird entschieden: Angenommen, wenn {approveAt, plural, one {# Person} other {# Personen}} von {max} zustimmen; abgelehnt, wenn {rejectAt, plural, one {# Person ablehnt} other {# Personen ablehnen}}.',
  'form.escalate':
    'Ist dies {after} nach dem Versand noch offen, {backups, plural, one {wird eine Vertretung} other {werden # Vertretungen}} ebenfalls gefragt und {backups, plural, one {darf} other {dürfen}} anstelle aller antworten, die noch nicht geantwortet haben.',
};

const sl: FormWords = {
  'form.yourName': 'Vaše ime',
  'form.approve': 'Odobri',
  'form.reject': 'Zavrni',
  'form.decide.any': 'Kako se odloča: odloči prvi odgovor, Odobri ali Zavrni.',
  'form.decide.allOne': 'Kako se odloča: odloči edina vprašana oseba.',
  'form.decide.all': 'Kako se odloča: odobriti morajo vse osebe ({max}); en Zavrni odloči.',
  'form.decide.quorum':
    'Kako se odloča: odobreno, ko {approveAt, plural, one {odobri # oseba} two {odobrita # osebi} few {odobrijo # osebe} other {odobri # oseb}} od {max}; zavrnjeno, ko {rejectAt, plural, one {zavrne # oseba} two {zavrneta # osebi} few {zavrnejo # osebe} other {zavrne # oseb}}.',
  'form.escalate':
    'Če je to {after} po pošiljanju še odprto, {backups, plural, one {vprašamo tudi # namestnika, ki lahko odgovori} two {vprašamo tudi # namestnika, ki lahko odgovorita} few {vprašamo tudi # namestnike, ki lahko odgovorijo} other {vprašamo tudi # namestnikov, ki lahko odgovorijo}} namesto vseh, ki še niso odgovorili.',
};

const es: FormWords = {
  'form.yourName': 'Su nombre',
  'form.approve': 'Aprobar',
  'form.reject': 'Rechazar',
  'form.decide.any': 'Cómo se decide: decide la primera respuesta, Aprobar o Rechazar.',
  'form.decide.allOne': 'Cómo se decide: decide la única persona a la que se pregunta.',
  'form.decide.all': 'Cómo se decide: las {max} personas deben aprobar; un solo Rechazar decide.',
  'form.decide.quorum':
    'Cómo se decide: se aprueba cuando {approveAt, plural, one {# persona de {max} aprueba} other {# personas de {max} aprueban}}; se rechaza cuando {rejectAt, plural, one {# persona rechaza} other {# personas rechazan}}.',
  'form.escalate':
    'Si sigue abierto {after} después del envío, también se pregunta a {backups, plural, one {una persona suplente, que puede} other {# personas suplentes, que pueden}} responder en lugar de quienes aún no lo hayan hecho.',
};

const fr: FormWords = {
  'form.yourName': 'Votre nom',
  'form.approve': 'Approuver',
  'form.reject': 'Refuser',
  'form.decide.any': 'Comment la décision est prise : la première réponse décide, Approuver ou Refuser.',
  'form.decide.allOne': 'Comment la décision est prise : la seule personne sollicitée décide.',
  'form.decide.all': 'Comment la décision est prise : les {max} personnes doivent approuver ; un seul Refuser suffit à rejeter.',
  'form.decide.quorum':
    'Comment la décision est prise : approuvé quand {approveAt, plural, one {# personne sur {max} approuve} other {# personnes sur {max} approuvent}} ; refusé quand {rejectAt, plural, one {# personne refuse} other {# personnes refusent}}.',
  'form.escalate':
    'Si la demande est toujours ouverte {after} après son envoi, {backups, plural, one {une personne suppléante est aussi sollicitée et peut} other {# personnes suppléantes sont aussi sollicitées et peuvent}} répondre à la place de celles qui ne l’ont pas encore fait.',
};

/** The form words of every language Sess writes forms in (the catalog test reads them). */
export const FORM_WORDS: Readonly<Record<string, FormWords>> = { en, de, sl, es, fr };

export type FormWordKey = keyof typeof en;

/** The language of Sess's words in a form written in `locale`: the closest shipped one, else English. */
export function formWordsLanguage(locale: string | undefined): string {
  if (!locale) return 'en';
  const language = locale.toLowerCase().split('-')[0] ?? 'en';
  return language in FORM_WORDS ? language : 'en';
}

/** One of Sess's words for a form in `locale`, its placeholders filled. */
export function formWord(locale: string | undefined, key: FormWordKey, values?: Record<string, string | number>): string {
  const language = formWordsLanguage(locale);
  const message = FORM_WORDS[language]?.[key] ?? en[key];
  return String(new IntlMessageFormat(message, language).format(values));
}

/** A duration to the minute in the form's language ("1 hour 30 minutes", "2 Tage, 3 Stunden"), by Intl. */
export function durationWords(locale: string | undefined, seconds: number): string {
  const language = formWordsLanguage(locale);
  const units = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ] as const;
  const unit = (n: number, name: string) =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'long' }).format(n);
  const parts: string[] = [];
  let left = seconds;
  for (const [size, name] of units) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(unit(n, name));
    left -= n * size;
  }
  if (parts.length === 0) return unit(seconds, 'second');
  return new Intl.ListFormat(language, { type: 'unit', style: 'narrow' }).format(parts.slice(0, 2));
}
