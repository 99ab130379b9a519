/*
 * The counting rule of an Ask that decides (`respondents.decide`), in one place: the form model
 * words it for people, forms stores its thresholds when the Ask is made (the database then counts
 * against them under the Ask's lock), and a decision receipt is checked against it offline.
 */

/** any: the first answer decides. all: every place must approve; one reject decides. quorum: N approvals. */
export const DECISION_RULES = ['any', 'all', 'quorum'] as const;
export type DecisionRule = (typeof DECISION_RULES)[number];

/** The outcome of a deciding Ask. `undecided`: it ended (expired, withdrawn) before a decision; never consent. */
export const DECISION_OUTCOMES = ['pending', 'approved', 'rejected', 'undecided'] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** How many approvals decide approved and how many rejections decide rejected, for `max` places. */
export function decisionThresholds(
  rule: DecisionRule,
  quorum: number | null | undefined,
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

/** The outcome the counts reach under the thresholds, or pending. The approvals are checked first, as the database does. */
export function decidedBy(
  counts: { approved: number; rejected: number },
  at: { approveAt: number; rejectAt: number },
): 'approved' | 'rejected' | 'pending' {
  if (counts.approved >= at.approveAt) return 'approved';
  if (counts.rejected >= at.rejectAt) return 'rejected';
  return 'pending';
}
