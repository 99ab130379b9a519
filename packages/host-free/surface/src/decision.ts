import type { Action } from './schema.ts';

/*
 * An Ask that decides (`respondents.decide`): its people answer Approve or Reject, and the Ask
 * records the outcome the moment the deciding answer is accepted. The rule is counted by the
 * database, under the lock that keeps the cap exact (`sess_ask_outcome`, migration 0023); here are
 * the words and the buttons every face shows for it.
 */

/** any: the first answer decides. all: every place must approve; one reject decides. quorum: N approvals. */
export const DECISION_RULES = ['any', 'all', 'quorum'] as const;
export type DecisionRule = (typeof DECISION_RULES)[number];

/** The outcome of a deciding Ask. `undecided`: it ended (expired, withdrawn) before a decision; never consent. */
export const DECISION_OUTCOMES = ['pending', 'approved', 'rejected', 'undecided'] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** The two buttons of a deciding Ask; their intents are what the count reads. */
export const DECISION_ACTIONS: readonly Action[] = Object.freeze([
  Object.freeze({ id: 'approve', label: 'Approve', intent: 'approve' as const }),
  Object.freeze({ id: 'reject', label: 'Reject', intent: 'reject' as const }),
]);

/** How many approvals decide approve and how many rejections decide reject, for `max` places. */
export function decisionThresholds(
  rule: DecisionRule,
  quorum: number | undefined,
  max: number,
): { approveAt: number; rejectAt: number } {
  switch (rule) {
    case 'any':
      return { approveAt: 1, rejectAt: 1 };
    case 'all':
      return { approveAt: max, rejectAt: 1 };
    case 'quorum': {
      const need = quorum ?? max;
      // A reject decides once `need` approvals can no longer be reached.
      return { approveAt: need, rejectAt: max - need + 1 };
    }
  }
}

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
