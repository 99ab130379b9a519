import { DECISION_RULES } from '@sess/core';
import { z } from 'zod';
import { AssuranceSchema, ForSchema } from './assurance.ts';
import { LIMITS, STRUCTURE_LIMITS } from './limits.ts';
import { AnswerInChatSchema, ExpiresInSchema, LocaleSchema, machineName, readableText } from './schema.ts';

/** The seed's complete, good sess_ask call; it is carried in the tool's input schema. */
export const SESS_ASK_EXAMPLE = Object.freeze({
  question: 'Where should we go on Saturday?',
  details: 'I will check the forecast and suggest a plan.',
  fields: [
    { name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] },
    { name: 'avoid', label: 'Anything to avoid?', type: 'text', required: false },
  ],
  submit_label: 'Plan it',
});

const common = {
  name: machineName(`Key of this answer in the response values; unique, at most ${LIMITS.name} characters. Example: "place"`),
  label: readableText(LIMITS.label, `What the person answers, short, at most ${LIMITS.label} characters. Example: "Where to?"`),
};
const tail = {
  help: readableText(
    LIMITS.help,
    `Help: one hint under the field, at most ${LIMITS.help} characters. Example: "We leave at 9."`,
  ).optional(),
  required: z
    .boolean()
    .optional()
    .describe('Whether an answer is needed (default true). A boolean always has an answer: unchecked is false.')
    .meta({ default: true }),
};

const OptionsSchema = z
  .array(
    readableText(
      LIMITS.label,
      `An option, shown and returned as written, short, at most ${LIMITS.label} characters. Example: "Beach"`,
    ),
  )
  .min(1)
  .max(STRUCTURE_LIMITS.options)
  .describe(
    `The options, 1-${STRUCTURE_LIMITS.options}, unique, each at most ${LIMITS.label} characters. Example: ["Beach", "Mountains", "City"]`,
  );

export const TextAskFieldSchema = z
  .strictObject({
    ...common,
    type: z.literal('text'),
    multiline: z.boolean().optional().describe('A multi-line box; line breaks are kept.'),
    max_length: z
      .int()
      .min(1)
      .max(LIMITS.text)
      .optional()
      .describe(`Most characters of the answer, at most ${LIMITS.text} (also the default). Example: 500`),
    ...tail,
  })
  .describe('Free text.');

export const NumberAskFieldSchema = z
  .strictObject({
    ...common,
    type: z.literal('number'),
    min: z.number().optional().describe('Smallest accepted answer.'),
    max: z.number().optional().describe('Largest accepted answer.'),
    ...tail,
  })
  .describe('A number, decimals allowed.');

export const IntegerAskFieldSchema = z
  .strictObject({
    ...common,
    type: z.literal('integer'),
    min: z.int().optional().describe('Smallest accepted answer.'),
    max: z.int().optional().describe('Largest accepted answer.'),
    ...tail,
  })
  .describe('A whole number.');

export const BooleanAskFieldSchema = z
  .strictObject({ ...common, type: z.literal('boolean'), ...tail })
  .describe('Yes or no (a checkbox).');

export const ChoiceAskFieldSchema = z
  .strictObject({ ...common, type: z.literal('choice'), options: OptionsSchema, ...tail })
  .describe('One of the options; the answer is the option as written.');

export const MultiChoiceAskFieldSchema = z
  .strictObject({ ...common, type: z.literal('multi_choice'), options: OptionsSchema, ...tail })
  .describe('Any of the options; the answer is a list of the options chosen.');

export const RatingAskFieldSchema = z
  .strictObject({ ...common, type: z.literal('rating'), ...tail })
  .describe('A rating from 1 to 5; the answer is a whole number.');

/** One sess_ask field: seven simple types, each closed to its own options. */
export const AskFieldSchema = z.discriminatedUnion('type', [
  TextAskFieldSchema,
  NumberAskFieldSchema,
  IntegerAskFieldSchema,
  BooleanAskFieldSchema,
  ChoiceAskFieldSchema,
  MultiChoiceAskFieldSchema,
  RatingAskFieldSchema,
]);

/** The field types sess_ask takes, in the schema's order: every list of them is derived from this. */
export const ASK_FIELD_TYPES: readonly AskFieldType[] = Object.freeze(
  AskFieldSchema.options.map((option) => option.shape.type.value),
);

const respondentSeconds = z.int().min(STRUCTURE_LIMITS.minExpiresIn);

/** At most this many people named in `respondents.people`. */
export const PEOPLE_MAX = 50;

/** `respondents.people`: the workspace members an Ask is for, by the e-mail they sign in with. */
export const PeopleSchema = z
  .array(
    z
      .string()
      .min(3)
      .max(254)
      .describe('The e-mail a workspace member signs in with, at most 254 characters. Example: "ana@example.com"'),
  )
  .min(1)
  .max(PEOPLE_MAX)
  .describe(
    `Named respondents: the e-mail addresses (1 to ${PEOPLE_MAX}, each once) of the workspace members who answer. Each signs in to answer on their own page through the one shared link, and is notified on their own devices; nobody else can answer (assurance "account"). max may be left out: it is then the number of people.`,
  );

export const RespondentsSchema = z
  .strictObject({
    max: z
      .int()
      .min(1)
      .optional()
      .describe(
        'How many people may answer; exact, checked when each person starts. Required unless people is given (then it is the number of people). Example: 10',
      ),
    people: PeopleSchema.optional(),
    name: z
      .boolean()
      .optional()
      .describe('Ask each person for their name (a required "Your name" field, respondent_name in the answer).'),
    expires_in: ExpiresInSchema.optional().describe(
      `The one deadline for the Ask, in whole seconds from creation, instead of the top-level expires_in; at least ${STRUCTURE_LIMITS.minExpiresIn}. Example: 86400`,
    ),
    respondent_expires_in: respondentSeconds
      .optional()
      .describe(
        `How long each person has once they start, in whole seconds; at least ${STRUCTURE_LIMITS.minExpiresIn}. Example: 1800`,
      ),
    decide: z
      .enum(DECISION_RULES)
      .optional()
      .describe(
        'Make the Ask decide: each person answers Approve or Reject and Sess records the outcome. any: the first answer decides. all: everyone (every place, or every named person) must approve; one Reject decides. quorum: `quorum` approvals decide; a Reject decides once that many can no longer be reached. Fixed at creation and shown to every person. Leave it out to just collect answers.',
      ),
    quorum: z.int().min(1).optional().describe('With decide "quorum" only: how many approvals decide, 1 to max. Example: 2'),
    escalate: z
      .strictObject({
        after: z
          .int()
          .min(STRUCTURE_LIMITS.minExpiresIn)
          .describe(`Seconds from creation, at least ${STRUCTURE_LIMITS.minExpiresIn} and before the Ask ends. Example: 3600`),
        to: PeopleSchema.describe(
          `The backup people: e-mails (1 to ${PEOPLE_MAX}, each once) of workspace members not in people. Example: ["ben@example.com"]`,
        ),
      })
      .optional()
      .describe(
        'With people only: if the Ask is still open (not full, not decided) after `after` seconds, Sess notifies the backup people in `to`, and each may then answer in the place of a named person who has not, under the same rule.',
      ),
  })
  .describe(
    'Advanced: ask many people through one link (a Sess Ask). Share the link with everyone who should answer; each gets their own page. With people, only those members answer, each signed in.',
  );

/** sess_ask's arguments: a question and 1-12 simple fields, turned into an ordinary interaction by `toSurface`. */
export const AskArgumentsSchema = z
  .strictObject({
    question: readableText(
      LIMITS.title,
      `The question, shown as the heading: about 40 characters, at most ${LIMITS.title}. Example: "Where should we go on Saturday?"`,
    ),
    details: readableText(
      LIMITS.text,
      `Plain text under the question (no Markdown; line breaks kept), at most ${LIMITS.text} characters. Example: "I will check the forecast and suggest a plan."`,
    ).optional(),
    fields: z
      .array(AskFieldSchema)
      .min(1)
      .max(STRUCTURE_LIMITS.askFields)
      .describe(
        `What to ask, 1-${STRUCTURE_LIMITS.askFields} fields: ${ASK_FIELD_TYPES.slice(0, -1).join(', ')} or ${ASK_FIELD_TYPES.at(-1)}.`,
      ),
    locale: LocaleSchema.optional(),
    submit_label: readableText(
      LIMITS.button,
      `The button: a verb, 1-3 words, at most ${LIMITS.button} characters (default "Submit"). Example: "Plan it"`,
    ).optional(),
    expires_in: ExpiresInSchema.optional(),
    respondents: RespondentsSchema.optional(),
    answer_in_chat: AnswerInChatSchema.optional(),
    assurance: AssuranceSchema.optional(),
    for: ForSchema.optional(),
  })
  .describe(
    `Ask a short question with up to ${STRUCTURE_LIMITS.askFields} simple fields. Lengths are Unicode code points; nothing is truncated. One complete good call: ${JSON.stringify(SESS_ASK_EXAMPLE)}`,
  )
  .meta({ examples: [SESS_ASK_EXAMPLE] });

export type TextAskField = z.infer<typeof TextAskFieldSchema>;
export type NumberAskField = z.infer<typeof NumberAskFieldSchema>;
export type IntegerAskField = z.infer<typeof IntegerAskFieldSchema>;
export type BooleanAskField = z.infer<typeof BooleanAskFieldSchema>;
export type ChoiceAskField = z.infer<typeof ChoiceAskFieldSchema>;
export type MultiChoiceAskField = z.infer<typeof MultiChoiceAskFieldSchema>;
export type RatingAskField = z.infer<typeof RatingAskFieldSchema>;
export type AskField = z.infer<typeof AskFieldSchema>;
export type AskFieldType = AskField['type'];
export type Respondents = z.infer<typeof RespondentsSchema>;
export type AskArguments = z.infer<typeof AskArgumentsSchema>;
