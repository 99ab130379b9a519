import { type DecisionRule, decisionThresholds } from '@sess/core';
import { durationWords, formWord } from './form-words.ts';
import type { Action } from './schema.ts';

/*
 * An Ask that decides (`respondents.decide`): its people answer Approve or Reject, and the Ask
 * records the outcome the moment the deciding answer is accepted (the answer's statement counts,
 * under the Ask's row lock, against the thresholds of @sess/core's `decisionThresholds`). Here are
 * the words and the buttons every face shows for it.
 */

/** The two buttons of a deciding Ask, in the form's language; their ids and intents are what the count reads. */
export function decisionActions(locale?: string): Action[] {
  return [
    { id: 'approve', label: formWord(locale, 'form.approve'), intent: 'approve' },
    { id: 'reject', label: formWord(locale, 'form.reject'), intent: 'reject' },
  ];
}

/** The two buttons of a deciding Ask in English (their ids and intents are the same in every language). */
export const DECISION_ACTIONS: readonly Action[] = Object.freeze(decisionActions().map((action) => Object.freeze(action)));

/** The rule in a sentence, as the Ask's page shows it to every respondent (and the receipt signs it). */
export function decisionRuleText(rule: DecisionRule, quorum: number | undefined, max: number, locale?: string): string {
  const { approveAt, rejectAt } = decisionThresholds(rule, quorum, max);
  if (rule === 'any') return formWord(locale, 'form.decide.any');
  if (rule === 'all') return max === 1 ? formWord(locale, 'form.decide.allOne') : formWord(locale, 'form.decide.all', { max });
  return formWord(locale, 'form.decide.quorum', { approveAt, rejectAt, max });
}

/** The backup line every respondent reads on an Ask made with `respondents.escalate`. */
export function escalationText(afterSeconds: number, backups: number, locale?: string): string {
  return formWord(locale, 'form.escalate', { after: durationWords(locale, afterSeconds), backups });
}
