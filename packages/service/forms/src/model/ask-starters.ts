import type { SessionRow } from './session-row.ts';

/**
 * Who may start a page of an Ask with named people: those people, and from its escalation on
 * its backup people too (`respondents.escalate`: they then answer in the place of a named person
 * who has not). Null for an Ask anyone with the link answers.
 */
export function askStarters(
  ask: Pick<SessionRow, 'forUserIds' | 'askBackupUserIds' | 'askEscalateAt'>,
  now: Date,
): string[] | null {
  const escalated = ask.askEscalateAt !== null && now.getTime() >= ask.askEscalateAt.getTime();
  if (!escalated || ask.askBackupUserIds === null) return ask.forUserIds;
  return [...(ask.forUserIds ?? []), ...ask.askBackupUserIds];
}
