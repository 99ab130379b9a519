import { z } from 'zod';
import type { ArgumentIssue } from './issues.ts';

/*
 * How sure Sess must be of who answers a form (issue 37), as the create tools take it. `link`:
 * whoever holds the link; `account`: the Sess account the form is for, signed in on that
 * browser; `passkey`: that account, confirming this very answer with its passkey on the page.
 */

/** Every level, least to most sure (the order a floor raises by). */
export const ASSURANCE_LEVELS = ['link', 'account', 'passkey'] as const;
export type AssuranceLevel = (typeof ASSURANCE_LEVELS)[number];

/** The levels an agent (or a person's floor setting) may choose this round. */
export const ASSURANCE_CHOICES = ['link', 'account', 'passkey'] as const satisfies readonly AssuranceLevel[];
export type AssuranceChoice = (typeof ASSURANCE_CHOICES)[number];

/** The more sure of two levels: a floor raises a lower ask, never lowers a higher one. */
export function atLeast(asked: AssuranceLevel, floor: AssuranceLevel): AssuranceLevel {
  return ASSURANCE_LEVELS.indexOf(asked) >= ASSURANCE_LEVELS.indexOf(floor) ? asked : floor;
}

/** At most this many people named in `for`. */
export const FOR_MAX = 10;

/** `assurance` of sess_request and sess_ask (and the /v1 create bodies): one description for both tools. */
export const AssuranceSchema = z
  .enum(ASSURANCE_CHOICES)
  .describe(
    'Who may answer (default "link"): "link" lets whoever holds the link answer; "account" requires the person the form is for to be signed in to Sess on the page; "passkey" also requires them to confirm this very answer with their passkey (fingerprint, face, PIN or screen lock) on the page, and the receipt names the passkey. Ask for "account" when the answer must come from the person themselves, and for "passkey" when the decision approves something irreversible (a commit, a payment, a sent message): then neither you nor anyone the link reaches can answer in their place, and a "passkey" form is answered on its link only (not in the chat). The person or workspace may set a higher floor; the result\'s assurance says the level the form got. An Ask (sess_ask with respondents) takes "account" only with respondents.people, the members who answer (each signed in); without people it is "link", and "passkey" is not taken for an Ask yet.',
  );

/** `for` of the create tools: the members a workspace API key's form is for, by e-mail. */
export const ForSchema = z
  .array(
    z
      .string()
      .min(3)
      .max(254)
      .describe('The e-mail a workspace member signs in with, at most 254 characters. Example: "ana@example.com"'),
  )
  .min(1)
  .max(FOR_MAX)
  .describe(
    `Only with a workspace API key, and with assurance "account": the e-mail addresses (1 to ${FOR_MAX}) of the workspace members who may answer; each must sign in to answer. Left out, the form is for the workspace's owners. A form made through a person's own connection is always for that person: leave it out there.`,
  );

/** The rules the two fields share: `for` names who signs in, so it needs a level above `link`. */
export function checkAudienceRules(args: {
  assurance?: AssuranceChoice | undefined;
  for?: string[] | undefined;
}): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  if (args.for !== undefined && (args.assurance ?? 'link') === 'link') {
    issues.push({
      field: '/for',
      message:
        '/for names who must sign in to answer, but the assurance is "link" (whoever holds the link). Add assurance: "account", or leave for out.',
    });
  }
  issues.push(...checkMemberAddresses(args.for ?? [], '/for'));
  return issues;
}

/**
 * Members named by e-mail (`for`, `respondents.people`) at `at`: each an address, each once
 * after trimming and lowercasing. The address itself is never repeated in a message.
 */
export function checkMemberAddresses(emails: readonly string[], at: string): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  const seen = new Set<string>();
  emails.forEach((email, i) => {
    const key = email.trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+$/.test(key)) {
      issues.push({
        field: `${at}/${i}`,
        message: `${at}/${i} is not an e-mail address. Name each member by the e-mail they sign in with.`,
      });
    } else if (seen.has(key)) {
      issues.push({ field: `${at}/${i}`, message: `${at}/${i} repeats an earlier address. Give each person once.` });
    }
    seen.add(key);
  });
  return issues;
}
