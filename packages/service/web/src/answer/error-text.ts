import type { Messages } from '../i18n/messages.ts';
import type { AnswerErrorView } from './view.ts';

/**
 * An answer error in the page's language, from its code and parameters. The validator writes its
 * messages in English, so an English page shows them as written; an error this page does not
 * know (or one without the parameters its message needs) keeps that English too.
 */
export function errorText(m: Messages, error: AnswerErrorView): string {
  if (m.tag === 'en') return error.message;
  const p = error.params ?? {};
  switch (error.code) {
    case 'required':
      return m.t('answer.error.required');
    case 'type':
      return p.expected === undefined ? error.message : m.t('answer.error.type', { expected: p.expected });
    case 'enum':
      return m.t('answer.error.enum');
    case 'duplicate':
      return m.t('answer.error.duplicate');
    case 'too_short':
      return p.limit === undefined ? error.message : m.t('answer.error.tooShort', { limit: p.limit, length: p.length ?? 0 });
    case 'too_long':
      return p.limit === undefined ? error.message : m.t('answer.error.tooLong', { limit: p.limit, length: p.length ?? 0 });
    case 'too_small':
      return p.limit === undefined ? error.message : m.t('answer.error.tooSmall', { limit: m.number(p.limit) });
    case 'too_big':
      return p.limit === undefined ? error.message : m.t('answer.error.tooBig', { limit: m.number(p.limit) });
    case 'too_few':
      return p.limit === undefined ? error.message : m.t('answer.error.tooFew', { limit: p.limit });
    case 'too_many':
      return p.limit === undefined ? error.message : m.t('answer.error.tooMany', { limit: p.limit });
    case 'pattern':
      return m.t('answer.error.pattern');
    case 'format':
      return p.format === undefined
        ? error.message
        : m.t('answer.error.format', { format: p.format === 'date-time' ? 'dateTime' : p.format });
    case 'character':
      return p.codePoint === undefined || p.position === undefined
        ? error.message
        : m.t('answer.error.character', { kind: p.kind ?? 'unstorable', codePoint: p.codePoint, position: p.position });
    case 'unknown_field':
      return m.t('answer.error.unknownField');
    case 'unknown_action':
      return m.t('answer.error.unknownAction');
    case 'action_required':
      return m.t('answer.error.actionRequired');
    default:
      return error.message;
  }
}
