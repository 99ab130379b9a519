import type { AskArguments, AskField } from './ask-schema.ts';
import { decisionActions, decisionRuleText, escalationText } from './decision.ts';
import { formWord } from './form-words.ts';
import { LIMITS } from './limits.ts';
import type { Component, FieldComponent, FieldType, IntegerType, NumberType, Surface } from './schema.ts';

/** Name of the "Your name" field added when `respondents.name` is true; reserved for it. */
export const RESPONDENT_NAME_FIELD = 'respondent_name';

/** The highest rating; a rating is an integer from 1 to this, shown as 1-5. */
export const RATING_MAX = 5;

function fieldType(field: AskField): FieldType {
  switch (field.type) {
    case 'text':
      return field.max_length === undefined ? { type: 'string' } : { type: 'string', maxLength: field.max_length };
    case 'number':
    case 'integer': {
      const schema: NumberType | IntegerType = { type: field.type };
      if (field.min !== undefined) schema.minimum = field.min;
      if (field.max !== undefined) schema.maximum = field.max;
      return schema;
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'choice':
      return { type: 'string', enum: [...field.options] };
    case 'multi_choice':
      return { type: 'array', items: { type: 'string', enum: [...field.options] } };
    case 'rating':
      return { type: 'integer', minimum: 1, maximum: RATING_MAX };
  }
}

function fieldComponent(field: AskField): FieldComponent {
  const component: FieldComponent = { type: 'field', name: field.name, label: field.label, schema: fieldType(field) };
  if (field.help !== undefined) component.description = field.help;
  if (field.type === 'text' && field.multiline === true) component.multiline = true;
  // Always explicit, so the stored surface (and its receipt) says what was asked of the person.
  component.required = field.required ?? true;
  return component;
}

/**
 * The ordinary interaction sess_request would take for these sess_ask arguments: `question`
 * becomes the title, `details` a text component, each field a field component (rating = an
 * integer from 1 to 5), `submit_label` the one submit action (without it, the default Submit
 * button), and `respondents.name` a required "Your name" field first. An Ask that decides
 * (`respondents.decide`) states its rule last and has Approve and Reject buttons. `expires_in` and
 * `respondents` stay with the runtime. Give it arguments from `parseAskArguments`; the result
 * then always passes `parseSurface`.
 */
export function toSurface(args: AskArguments): Surface {
  const components: Component[] = [];
  if (args.details !== undefined) components.push({ type: 'text', text: args.details });
  if (args.respondents?.name === true) {
    components.push({
      type: 'field',
      name: RESPONDENT_NAME_FIELD,
      label: formWord(args.locale, 'form.yourName'),
      required: true,
      schema: { type: 'string', maxLength: LIMITS.label },
    });
  }
  for (const field of args.fields) components.push(fieldComponent(field));
  const decide = args.respondents?.decide;
  // The rule is part of the form every person reads, and so of what each answer's receipt signs.
  if (decide !== undefined) {
    const places = args.respondents?.people?.length ?? args.respondents?.max ?? 1;
    components.push({ type: 'text', text: decisionRuleText(decide, args.respondents?.quorum, places, args.locale) });
  }
  const escalate = args.respondents?.escalate;
  if (escalate !== undefined)
    components.push({ type: 'text', text: escalationText(escalate.after, escalate.to.length, args.locale) });
  const surface: Surface = { mode: 'interactive', title: args.question, source: { kind: 'sess_surface', components } };
  if (args.locale !== undefined) surface.locale = args.locale;
  if (decide !== undefined) surface.actions = decisionActions(args.locale);
  else if (args.submit_label !== undefined) surface.actions = [{ id: 'submit', label: args.submit_label, intent: 'submit' }];
  return surface;
}
