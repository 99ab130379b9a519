import { z } from 'zod';
import { AssuranceSchema, ForSchema } from './assurance.ts';
import { LIMITS, STRUCTURE_LIMITS } from './limits.ts';

/*
 * The interactive Surface (the `interaction` of sess_request and sess_publish), closed at every
 * level. Lengths are not enforced here: zod counts UTF-16 units and the seed counts code points,
 * so `validate.ts` checks them in one walk. The `maxLength` put into each string's metadata is
 * only for the generated JSON Schema, where `maxLength` already means code points.
 */

/** A string a person reads: non-empty, at most `limit` code points, documented for the agent. */
export function readableText(limit: number, description: string): z.ZodString {
  return z.string().min(1, { error: 'must not be empty' }).describe(description).meta({ maxLength: limit });
}

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A machine name (field `name`, action `id`): a letter, then letters, digits, `_` or `-`. */
export function machineName(description: string): z.ZodString {
  return z
    .string()
    .regex(NAME_PATTERN, { error: 'must start with a letter and use only letters, digits, _ and -' })
    .describe(description)
    .meta({ maxLength: LIMITS.name });
}

/** The longest language tag taken (BCP 47 allows long ones; no real form needs more). */
const LOCALE_MAX = 35;

/**
 * The language the form is written in, as a BCP 47 tag. The page puts it on the agent's text
 * (`lang`), and shows Sess's own words in it when Sess has that language.
 */
export const LocaleSchema = z
  .string()
  .max(LOCALE_MAX)
  .refine(isLanguageTag, { error: 'must be a BCP 47 language tag, like "de", "sl" or "pt-BR"' })
  .describe(
    `The language the question is written in, as a BCP 47 tag of at most ${LOCALE_MAX} characters. Example: "de". Sess shows its own words on the page (buttons it adds, dates, errors) in it when it can, else in the language of the person’s browser.`,
  );

function isLanguageTag(tag: string): boolean {
  if (tag.length > LOCALE_MAX) return true; // the length issue says what is wrong; one issue per pointer
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** String formats a field may ask for; each has a checker in `formats.ts`. */
export const STRING_FORMATS = ['email', 'uri', 'date', 'date-time', 'time'] as const;

/** What a button means. `reject` may leave required fields empty; `submit` is the default button's. */
export const ACTION_INTENTS = ['approve', 'reject', 'submit', 'other'] as const;

const EnumSchema = z
  .array(z.string().min(1, { error: 'must not be empty' }))
  .min(1)
  .max(STRUCTURE_LIMITS.options)
  .describe(
    `Option IDs, returned in the answer; 1-${STRUCTURE_LIMITS.options}, unique. An ID without an option_labels entry is shown as its own label, so it is held to ${LIMITS.label} characters. Example: ["beach", "mountains"]`,
  );

const OptionLabelsSchema = z
  .array(readableText(LIMITS.label, `Option label, short, at most ${LIMITS.label} characters. Example: "Beach"`))
  .min(1)
  .max(STRUCTURE_LIMITS.options)
  .describe(
    `Labels the person sees, one per enum ID in the same order (may be shorter than enum: the rest show their IDs); each at most ${LIMITS.label} characters. Example: ["Beach", "Mountains"]`,
  );

/** A string answer: free text, or one of `enum` (a single choice). */
export const StringTypeSchema = z
  .strictObject({
    type: z.literal('string'),
    minLength: z.int().min(0).max(LIMITS.text).optional().describe('Fewest characters of a non-empty answer.'),
    maxLength: z
      .int()
      .min(1)
      .max(LIMITS.text)
      .optional()
      .describe(`Most characters of the answer, at most ${LIMITS.text} (also the default). Example: 2000`),
    pattern: z
      .string()
      .min(1)
      .optional()
      .describe(
        `Regular expression the answer must match, unanchored (add ^ and $ to match the whole answer); at most ${LIMITS.pattern} characters. It must be valid ECMAScript (u flag) and is matched by RE2: classes, \\d \\w \\s \\b, \\p{L}, groups, | and counted repeats work; backreferences (\\1), lookahead and lookbehind ((?=, (?<=) and \\p{Script=…} are refused. In RE2, \\s is ASCII whitespace and . is any character but a line feed. Example: "^[A-Z]{3}-\\\\d+$"`,
      )
      .meta({ maxLength: LIMITS.pattern }),
    format: z.enum(STRING_FORMATS).optional().describe('A well-known form of the answer: email, uri, date, date-time or time.'),
    enum: EnumSchema.optional(),
    option_labels: OptionLabelsSchema.optional(),
  })
  .describe('Text, or a single choice when enum is given (then without minLength, maxLength, pattern or format).');

/** A decimal number answer. */
export const NumberTypeSchema = z.strictObject({
  type: z.literal('number'),
  minimum: z.number().optional().describe('Smallest accepted answer.'),
  maximum: z.number().optional().describe('Largest accepted answer.'),
});

/** A whole number answer. */
export const IntegerTypeSchema = z.strictObject({
  type: z.literal('integer'),
  minimum: z.int().optional().describe('Smallest accepted answer.'),
  maximum: z.int().optional().describe('Largest accepted answer.'),
});

/** A yes/no answer (a checkbox); unchecked is `false`. */
export const BooleanTypeSchema = z.strictObject({ type: z.literal('boolean') });

/** The options of a multi-choice field. */
export const ChoiceItemsSchema = z.strictObject({
  type: z.literal('string'),
  enum: EnumSchema,
  option_labels: OptionLabelsSchema.optional(),
});

/** A multi-choice answer: several IDs of `items.enum`. */
export const MultiChoiceTypeSchema = z
  .strictObject({
    type: z.literal('array'),
    items: ChoiceItemsSchema,
    minItems: z.int().min(0).max(STRUCTURE_LIMITS.options).optional().describe('Fewest options to choose.'),
    maxItems: z.int().min(1).max(STRUCTURE_LIMITS.options).optional().describe('Most options to choose.'),
  })
  .describe('Multi-choice: the answer is a list of items.enum IDs.');

/** A field's `schema`: the JSON Schema subset Sess renders and checks. */
export const FieldTypeSchema = z
  .discriminatedUnion('type', [StringTypeSchema, NumberTypeSchema, IntegerTypeSchema, BooleanTypeSchema, MultiChoiceTypeSchema])
  .describe(
    'JSON Schema subset for the answer: string (minLength, maxLength, pattern, format), string with enum and option_labels (one choice), number or integer (minimum, maximum), boolean, or array of an enum (several choices). Example: {"type": "string", "minLength": 1, "maxLength": 2000}',
  );

export const HeadingComponentSchema = z.strictObject({
  type: z.literal('heading'),
  text: readableText(LIMITS.heading, `A section heading, short, at most ${LIMITS.heading} characters. Example: "What changed"`),
});

export const TextComponentSchema = z.strictObject({
  type: z.literal('text'),
  text: readableText(
    LIMITS.text,
    `Plain text shown as paragraphs (no Markdown; line breaks kept), at most ${LIMITS.text} characters. Send a summary, not a raw diff. Example: "Two files changed; all tests pass."`,
  ),
});

export const RecordComponentSchema = z.strictObject({
  type: z.literal('record'),
  label: readableText(
    LIMITS.recordLabel,
    `Caption of the record, a few words, at most ${LIMITS.recordLabel} characters. Example: "What changed"`,
  ),
  fields: z
    .record(
      z
        .string()
        .min(1, { error: 'must not be empty' })
        .meta({ maxLength: LIMITS.recordKey })
        .describe(`Key, as written, at most ${LIMITS.recordKey} characters. Example: "src/greeting.js"`),
      z
        .string()
        .describe(
          `Value, as written, at most ${LIMITS.recordValue} characters. Example: "Greeting now uses the user's first name"`,
        )
        .meta({ maxLength: LIMITS.recordValue }),
    )
    .describe(
      `Key-value pairs shown as a table, as written, in order; at least one. Keys at most ${LIMITS.recordKey} characters, values at most ${LIMITS.recordValue}. Example: {"src/greeting.js": "Greeting now uses the user's first name"}`,
    ),
});

export const FieldComponentSchema = z.strictObject({
  type: z.literal('field'),
  name: machineName(
    `Key of this answer in the response values; unique in the form, at most ${LIMITS.name} characters. Example: "message"`,
  ),
  label: readableText(
    LIMITS.label,
    `What the person answers, short, at most ${LIMITS.label} characters. Example: "Commit message"`,
  ),
  description: readableText(
    LIMITS.help,
    `Help: one hint under the field, at most ${LIMITS.help} characters. Example: "Keep the first line under 50 characters."`,
  ).optional(),
  multiline: z.boolean().optional().describe('Show a multi-line text box (text fields only); line breaks are kept.'),
  required: z
    .boolean()
    .optional()
    .describe('Whether an answer is needed (default true). A reject button may leave it empty; a boolean always has an answer.'),
  value: z
    .union([z.string(), z.number(), z.boolean(), z.array(z.string())])
    .optional()
    .describe('Initial answer the person can edit; it must satisfy schema. Example: "Greet users by first name"'),
  schema: FieldTypeSchema,
});

/** The four components, in the order they are shown. */
export const ComponentSchema = z.discriminatedUnion('type', [
  HeadingComponentSchema,
  TextComponentSchema,
  RecordComponentSchema,
  FieldComponentSchema,
]);

export const ActionSchema = z.strictObject({
  id: machineName(`Returned as the chosen action; unique in the form, at most ${LIMITS.name} characters. Example: "approve"`),
  label: readableText(
    LIMITS.button,
    `Button text: a verb, 1-3 words, at most ${LIMITS.button} characters. Example: "Approve and commit"`,
  ),
  intent: z
    .enum(ACTION_INTENTS)
    .describe('What the button means: approve, reject (may leave required fields empty), submit or other.'),
});

/** The interactive Surface: what one step of a form shows and which buttons it offers. */
export const SurfaceSchema = z
  .strictObject({
    mode: z.literal('interactive'),
    title: readableText(
      LIMITS.title,
      `The heading the person reads first: a question or a task, about 40 characters, at most ${LIMITS.title}. Example: "Approve this commit?"`,
    ),
    description: readableText(
      LIMITS.description,
      `One or two sentences under the title, at most ${LIMITS.description} characters. Example: "The tests pass. Edit the message if you like."`,
    ).optional(),
    locale: LocaleSchema.optional(),
    source: z.strictObject({
      kind: z.literal('sess_surface'),
      components: z
        .array(ComponentSchema)
        .describe(
          `What the form shows, top to bottom: heading, text, record and field components; at most ${STRUCTURE_LIMITS.fields} fields.`,
        ),
    }),
    actions: z
      .array(ActionSchema)
      .min(1)
      .max(STRUCTURE_LIMITS.actions)
      .optional()
      .describe(`The buttons, 1-${STRUCTURE_LIMITS.actions}. Omit for one "Submit" button (id "submit", intent submit).`),
  })
  .describe(
    `The form the person sees: title, optional description, components and up to ${STRUCTURE_LIMITS.actions} buttons. Lengths are Unicode code points. Closed: unknown keys are refused; at most 32 KiB of JSON, ${STRUCTURE_LIMITS.fields} fields and ${STRUCTURE_LIMITS.nesting} levels of nesting. Nothing is ever truncated.`,
  );

export type StringType = z.infer<typeof StringTypeSchema>;
export type NumberType = z.infer<typeof NumberTypeSchema>;
export type IntegerType = z.infer<typeof IntegerTypeSchema>;
export type BooleanType = z.infer<typeof BooleanTypeSchema>;
export type ChoiceItems = z.infer<typeof ChoiceItemsSchema>;
export type MultiChoiceType = z.infer<typeof MultiChoiceTypeSchema>;
export type FieldType = z.infer<typeof FieldTypeSchema>;
export type HeadingComponent = z.infer<typeof HeadingComponentSchema>;
export type TextComponent = z.infer<typeof TextComponentSchema>;
export type RecordComponent = z.infer<typeof RecordComponentSchema>;
export type FieldComponent = z.infer<typeof FieldComponentSchema>;
export type Component = z.infer<typeof ComponentSchema>;
export type Action = z.infer<typeof ActionSchema>;
export type ActionIntent = (typeof ACTION_INTENTS)[number];
export type Surface = z.infer<typeof SurfaceSchema>;

/** The button a form without `actions` shows. */
export const DEFAULT_SUBMIT_ACTION: Readonly<Action> = Object.freeze({ id: 'submit', label: 'Submit', intent: 'submit' });

/** The buttons the person sees: the surface's `actions`, or the one default Submit button. */
export function resolveActions(surface: Surface): readonly Action[] {
  return surface.actions ?? [DEFAULT_SUBMIT_ACTION];
}

/** `expires_in` of sess_request and sess_ask; the plan's ceiling is the runtime's to check. */
export const ExpiresInSchema = z
  .int()
  .min(STRUCTURE_LIMITS.minExpiresIn)
  .describe(
    `Advanced: how long the link stays open, in whole seconds from creation: at least ${STRUCTURE_LIMITS.minExpiresIn}, at most your plan's link lifetime (Sess checks the ceiling). Example: 3600`,
  );

/**
 * `answer_in_chat` of sess_request and sess_ask (issue 36): whether a host that shows apps may
 * render the form in the agent's chat for the person there to answer. Absent means true, except
 * for an Ask, whose link is for others and which is never answered in the chat.
 */
export const AnswerInChatSchema = z
  .boolean()
  .describe(
    "Whether the person in this chat may answer right here: hosts that show apps may render the form in the chat (default true). Pass false when the answer must come from someone other than the person in this chat, or must be given on the link's page (on their phone, say). Never true for an Ask (sess_ask with respondents): its link is for others.",
  );

/**
 * sess_request's arguments: one interaction, an optional lifetime, whether it may be answered in
 * the chat, and who may answer (`assurance`, with `for` the members an API key's form is for).
 */
export const RequestArgumentsSchema = z.strictObject({
  interaction: SurfaceSchema,
  expires_in: ExpiresInSchema.optional(),
  answer_in_chat: AnswerInChatSchema.optional(),
  assurance: AssuranceSchema.optional(),
  for: ForSchema.optional(),
});

export type RequestArguments = z.infer<typeof RequestArgumentsSchema>;
