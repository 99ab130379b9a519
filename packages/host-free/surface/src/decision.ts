import { type DecisionRule, decisionThresholds } from '@sess/core';
import type { Action } from './schema.ts';

/*
 * An Ask that decides (`respondents.decide`): its people answer Approve or Reject, and the Ask
 * records the outcome the moment the deciding answer is accepted (the answer's statement counts,
 * under the Ask's row lock, against the thresholds of @sess/core's `decisionThresholds`). Here are
 * the words and the buttons every face shows for it.
 */

/** The two buttons of a deciding Ask; their intents are what the count reads. */
export const DECISION_ACTIONS: readonly Action[] = Object.freeze([
  Object.freeze({ id: 'approve', label: 'Approve', intent: 'approve' as const }),
  Object.freeze({ id: 'reject', label: 'Reject', intent: 'reject' as const }),
]);

/** The rule in a sentence, as the Ask's page shows it to every respondent (and the receipt signs it). */
export function decisionRuleText(rule: DecisionRule, quorum: number | undefined, max: number): string {
  const { approveAt, rejectAt } = decisionThresholds(rule, quorum, max);
  const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);
  if (rule === 'any') return 'How this is decided: the first answer decides, Approve or Reject.';
  if (rule === 'all')
    return max === 1
      ? 'How this is decided: the one person asked decides.'
      : `How this is decided: all ${max} people must approve; one Reject decides.`;
  return `How this is decided: approved when ${people(approveAt)} of ${max} approve; rejected when ${people(rejectAt)} reject.`;
}

/** A duration in words, to the minute: "1 hour", "1 hour 30 minutes", "2 days". */
function inWords(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  const parts: string[] = [];
  let left = seconds;
  for (const [size, name] of units) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
    left -= n * size;
  }
  return parts.length > 0 ? parts.slice(0, 2).join(' ') : `${seconds} seconds`;
}

/** The backup line every respondent reads on an Ask made with `respondents.escalate`. */
export function escalationText(afterSeconds: number, backups: number): string {
  const who = backups === 1 ? 'a backup person is' : `${backups} backup people are`;
  return `If this is still open ${inWords(afterSeconds)} after it was sent, ${who} asked too, and may answer in place of anyone who has not.`;
}
