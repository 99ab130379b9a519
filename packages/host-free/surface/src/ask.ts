import type { AskArguments } from './ask-schema.ts';
import { AskArgumentsSchema } from './ask-schema.ts';
import { checkAudienceRules, checkMemberAddresses } from './assurance.ts';
import { checkFieldName, checkLength } from './check-surface.ts';
import { checkInteractionSize, checkRawInput } from './guard.ts';
import type { ArgumentIssue, Checked } from './issues.ts';
import { valueOrThrow } from './issues.ts';
import { LIMITS } from './limits.ts';
import { RESPONDENT_NAME_FIELD, toSurface } from './to-surface.ts';
import { fromZodIssues } from './zod-issues.ts';

/*
 * sess_ask is checked on its own arguments, so every pointer names what the agent sent
 * (`/fields/0/label`, not a pointer into the generated interaction). The phases are those of
 * `validate.ts`: raw structure, shape (zod), then lengths and rules in reading order (question,
 * details, each field, submit_label, respondents, answer_in_chat, assurance, for), and last the size of the
 * interaction it becomes. The rules are those of the interaction, so the result of `toSurface`
 * always passes.
 */

/** The field name sess_ask keeps for itself, and what for. */
const KEPT_NAMES: ReadonlyMap<string, string> = new Map([[RESPONDENT_NAME_FIELD, 'the "Your name" field of respondents.name']]);

function checkAskRules(args: AskArguments): ArgumentIssue[] {
  const issues: ArgumentIssue[] = [];
  checkLength(issues, args.question, '/question', LIMITS.title, 'title');
  if (args.details !== undefined) checkLength(issues, args.details, '/details', LIMITS.text);

  const names = new Set<string>();
  if (args.respondents?.name === true) names.add(RESPONDENT_NAME_FIELD);
  for (let i = 0; i < args.fields.length; i++) {
    const field = args.fields[i]!;
    const at = `/fields/${i}`;
    checkFieldName(issues, field.name, at, names, KEPT_NAMES);
    checkLength(issues, field.label, `${at}/label`, LIMITS.label);
    if (field.type === 'choice' || field.type === 'multi_choice') {
      const seen = new Set<string>();
      for (let j = 0; j < field.options.length; j++) {
        const option = field.options[j]!;
        checkLength(issues, option, `${at}/options/${j}`, LIMITS.label);
        if (seen.has(option))
          issues.push({
            field: `${at}/options/${j}`,
            message: `${at}/options/${j} "${option}" repeats an earlier option. Give each option once.`,
          });
        seen.add(option);
      }
    }
    if (
      (field.type === 'number' || field.type === 'integer') &&
      field.min !== undefined &&
      field.max !== undefined &&
      field.min > field.max
    ) {
      issues.push({ field: `${at}/min`, message: `${at}/min is more than max; no answer could fit. Swap or fix them.` });
    }
    if (field.help !== undefined) checkLength(issues, field.help, `${at}/help`, LIMITS.help);
  }

  if (args.submit_label !== undefined) checkLength(issues, args.submit_label, '/submit_label', LIMITS.button);
  if (args.submit_label !== undefined && args.respondents?.decide !== undefined) {
    issues.push({
      field: '/submit_label',
      message:
        '/submit_label is given with respondents.decide. An Ask that decides has two buttons, Approve and Reject. Leave submit_label out.',
    });
  }
  if (args.respondents?.expires_in !== undefined && args.expires_in !== undefined) {
    issues.push({
      field: '/respondents/expires_in',
      message:
        '/respondents/expires_in and /expires_in both set the deadline. Give it once: respondents.expires_in for an Ask, or expires_in alone.',
    });
  }
  if (args.respondents !== undefined) issues.push(...checkRespondentsRules(args.respondents));
  if (args.respondents !== undefined && args.answer_in_chat === true) {
    issues.push({
      field: '/answer_in_chat',
      message:
        "/answer_in_chat is true with respondents. An Ask's link is for others: it is never answered in the chat. Leave answer_in_chat out, or drop respondents to ask only the person in this chat.",
    });
  }
  const named = args.respondents?.people !== undefined;
  if (args.respondents !== undefined && !named && args.assurance !== undefined && args.assurance !== 'link') {
    issues.push({
      field: '/assurance',
      message: `/assurance is "${args.assurance}" with respondents but no respondents.people. An Ask without named people is answered by whoever holds its link. Name the members who answer in respondents.people (each then signs in), or leave assurance out.`,
    });
  }
  if (named && args.assurance === 'passkey') {
    issues.push({
      field: '/assurance',
      message:
        '/assurance is "passkey" with respondents. An Ask with named people is answered at "account" (each signs in); a passkey is not taken on an Ask yet. Leave assurance out, or ask one person without respondents.',
    });
  }
  if (args.respondents !== undefined && args.for !== undefined) {
    issues.push({
      field: '/for',
      message:
        '/for is given with respondents. The members an Ask is for are named in respondents.people: move the addresses there and leave for out.',
    });
  }
  // An Ask's members are checked at /respondents/people above.
  issues.push(...checkAudienceRules(args.respondents !== undefined ? { assurance: args.assurance } : args));
  return issues;
}

/** respondents: a max or people (or both, agreeing), each person once; a decision rule that can be met. */
function checkRespondentsRules(respondents: NonNullable<AskArguments['respondents']>): ArgumentIssue[] {
  const { max, people } = respondents;
  if (people === undefined) {
    if (respondents.escalate !== undefined)
      return [
        {
          field: '/respondents/escalate',
          message:
            '/respondents/escalate needs respondents.people: backup people stand in for named people who have not answered. Name the people asked first, or leave escalate out.',
        },
      ];
    if (max !== undefined) return checkDecisionRule(respondents, max);
    return [
      {
        field: '/respondents/max',
        message:
          '/respondents/max is required: how many people may answer, e.g. { "max": 10 }. Or name the members who answer in respondents.people.',
      },
    ];
  }
  const issues = checkMemberAddresses(people, '/respondents/people');
  if (max !== undefined && max !== people.length) {
    issues.push({
      field: '/respondents/max',
      message: `/respondents/max is ${max} but respondents.people names ${people.length}: each named person answers once. Leave max out (it is then the number of people) or make it ${people.length}.`,
    });
  }
  issues.push(...checkDecisionRule(respondents, people.length));
  if (respondents.escalate !== undefined) issues.push(...checkEscalation(respondents.escalate, people, respondents.expires_in));
  return issues;
}

/** The backup people: members, each once, none of them already named; asked before the Ask ends. */
function checkEscalation(
  escalate: NonNullable<NonNullable<AskArguments['respondents']>['escalate']>,
  people: readonly string[],
  expiresIn: number | undefined,
): ArgumentIssue[] {
  const issues = checkMemberAddresses(escalate.to, '/respondents/escalate/to');
  const named = new Set(people.map((email) => email.trim().toLowerCase()));
  escalate.to.forEach((email, i) => {
    if (named.has(email.trim().toLowerCase()))
      issues.push({
        field: `/respondents/escalate/to/${i}`,
        message: `/respondents/escalate/to/${i} is already in respondents.people. A backup is someone not asked first: remove them from one list.`,
      });
  });
  if (expiresIn !== undefined && escalate.after >= expiresIn)
    issues.push({
      field: '/respondents/escalate/after',
      message: `/respondents/escalate/after is ${escalate.after} s, not before the Ask ends (${expiresIn} s): nobody could be asked. Make it shorter than respondents.expires_in.`,
    });
  return issues;
}

/** `quorum` goes with decide "quorum" alone, and can be reached by the Ask's places. */
function checkDecisionRule(respondents: NonNullable<AskArguments['respondents']>, places: number): ArgumentIssue[] {
  const { decide, quorum } = respondents;
  if (decide === 'quorum' && quorum === undefined)
    return [
      {
        field: '/respondents/quorum',
        message: `/respondents/quorum is required with decide "quorum": how many approvals decide, 1 to ${places}. Example: { "decide": "quorum", "quorum": 2 }`,
      },
    ];
  if (quorum !== undefined && decide !== 'quorum')
    return [
      {
        field: '/respondents/quorum',
        message: `/respondents/quorum is given without decide "quorum". Add "decide": "quorum", or leave quorum out.`,
      },
    ];
  if (quorum !== undefined && quorum > places)
    return [
      {
        field: '/respondents/quorum',
        message: `/respondents/quorum is ${quorum} but only ${places} ${places === 1 ? 'person' : 'people'} can answer, so it could never be reached. Make it ${places} or less, or raise max.`,
      },
    ];
  return [];
}

/** Checks sess_ask's arguments, pointers relative to the arguments (`/question`, `/fields/0/label`). */
export function checkAskArguments(input: unknown): Checked<AskArguments> {
  const raw = checkRawInput(input, '');
  if (raw.length > 0) return { ok: false, issues: raw };
  const parsed = AskArgumentsSchema.safeParse(input);
  if (!parsed.success) return { ok: false, issues: fromZodIssues(parsed.error.issues, input, '') };
  const issues = checkAskRules(parsed.data);
  if (issues.length > 0) return { ok: false, issues };
  const size = checkInteractionSize(toSurface(parsed.data), '', 'The interaction built from these arguments');
  return size.length > 0 ? { ok: false, issues: size } : { ok: true, value: parsed.data };
}

/** All issues of the first failing phase of sess_ask's arguments (empty when valid). */
export function collectAskArgumentsIssues(input: unknown): ArgumentIssue[] {
  const checked = checkAskArguments(input);
  return checked.ok ? [] : checked.issues;
}

/**
 * sess_ask's arguments, validated and deep-equal to the input (defaults such as
 * `required: true` are applied by `toSurface`, not here). Throws `INVALID_ARGUMENTS` for the
 * first issue; the question over 80 gets the title's message.
 */
export function parseAskArguments(input: unknown): AskArguments {
  return valueOrThrow(checkAskArguments(input));
}
