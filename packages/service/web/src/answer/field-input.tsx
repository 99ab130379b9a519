import type { Messages } from '../i18n/messages.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate, textDir } from '../isolate.tsx';
import type { FieldSchemaView, FieldView, PostedValues } from './view.ts';

/** Choices up to this many show as radio buttons; more show as a select. */
export const RADIO_MAX_OPTIONS = 5;

/** The element id of a field's input (or of its first option), for labels and error links. */
export function fieldId(name: string): string {
  return `f-${name}`;
}

const helpId = (name: string) => `f-${name}-help`;
const errorId = (name: string) => `f-${name}-error`;
const formatId = (name: string) => `f-${name}-format`;

type RawValue = string | number | boolean | readonly string[] | undefined;

/** The value to show: what the person posted (after a refused post), else the agent's initial value. */
function shownValue(field: FieldView, posted: PostedValues | undefined): RawValue {
  if (posted === undefined) return field.value;
  return Object.hasOwn(posted, field.name) ? posted[field.name] : undefined;
}

function asText(value: RawValue): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value[0] ?? '';
  return String(value);
}

function asSet(value: RawValue): Set<string> {
  if (value === undefined || value === '') return new Set();
  if (Array.isArray(value)) return new Set(value);
  return new Set([String(value)]);
}

function asChecked(value: RawValue, posted: boolean): boolean {
  if (!posted) return value === true;
  const text = asText(value);
  return text === 'on' || text === 'true';
}

interface Option {
  value: string;
  label: string;
}

/** A choice field's options: each id with its label (the id itself where the agent gave none). */
export function optionsOf(ids: readonly string[], labels: readonly string[] | undefined): Option[] {
  return ids.map((value, index) => ({ value, label: labels?.[index] ?? value }));
}

/** A 1-5 rating is an integer field held to exactly 1..5 (what sess_ask's `rating` becomes). */
export function isRating(schema: FieldSchemaView): boolean {
  return schema.type === 'integer' && schema.minimum === 1 && schema.maximum === 5;
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/;

/** The input type for a text field: the browser's own picker where the value fits it. */
function textInputType(format: string | undefined, value: string): string {
  switch (format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    // A datetime-local input cannot show a value with an offset; such a value stays editable as text.
    case 'date-time':
      return value === '' || LOCAL_DATE_TIME.test(value) ? 'datetime-local' : 'text';
    default:
      return 'text';
  }
}

function RequiredMark({ text }: { text: string }) {
  return <span class="req">{` ${text}`}</span>;
}

/** The agent's words for a field (label, option), marked with the form's language when it has one. */
function AgentText({ text, locale }: { text: string; locale?: string | undefined }) {
  return locale ? (
    <span lang={locale}>
      <Isolate text={text} />
    </span>
  ) : (
    <Isolate text={text} />
  );
}

function Help({ field, locale }: { field: FieldView; locale?: string | undefined }) {
  return field.description === undefined ? null : (
    <p class="hint" id={helpId(field.name)} dir={textDir(field.description)} lang={locale}>
      {field.description}
    </p>
  );
}

function ErrorText({ name, messages }: { name: string; messages: readonly string[] }) {
  const m = useMessages();
  return messages.length === 0 ? null : (
    <p class="error" id={errorId(name)}>
      <span class="visually-hidden">{`${m.t('answer.form.errorLabel')} `}</span>
      {messages.join(' ')}
    </p>
  );
}

/** A number as this page's language writes it, without grouping (what the person may type back). */
export function localNumber(m: Messages, value: number): string {
  return m.number(value, { useGrouping: false, maximumFractionDigits: 20 });
}

/** What a number field takes, with its numbers in the page's language ("A number from 0 to 2,5"). */
function numberHint(m: Messages, type: 'number' | 'integer', minimum: number | undefined, maximum: number | undefined): string {
  const min = minimum === undefined ? undefined : localNumber(m, minimum);
  const max = maximum === undefined ? undefined : localNumber(m, maximum);
  if (type === 'integer') {
    if (min !== undefined && max !== undefined) return m.t('answer.integer.between', { min, max });
    if (min !== undefined) return m.t('answer.integer.atLeast', { min });
    if (max !== undefined) return m.t('answer.integer.atMost', { max });
    return m.t('answer.integer.any');
  }
  if (min !== undefined && max !== undefined) return m.t('answer.number.between', { min, max });
  if (min !== undefined) return m.t('answer.number.atLeast', { min });
  if (max !== undefined) return m.t('answer.number.atMost', { max });
  return m.t('answer.number.any', { example: localNumber(m, 3.5) });
}

export interface FieldInputProps {
  field: FieldView;
  /** The person's posted values, when re-rendering a refused post. */
  posted?: PostedValues | undefined;
  /** This field's errors, in the page's language. */
  errors?: readonly string[] | undefined;
  /** The language the agent wrote the form in (`lang` on its words). */
  locale?: string | undefined;
}

/**
 * One field with its label, help and error, as the control that fits its type: text or
 * textarea, number, checkbox, radio group or select, checkboxes, or 1-5 rating buttons.
 * Help and error are tied to the control with aria-describedby; an error sets aria-invalid.
 */
export function FieldInput({ field, posted, errors = [], locale }: FieldInputProps) {
  const m = useMessages();
  const id = fieldId(field.name);
  const value = shownValue(field, posted);
  const invalid = errors.length > 0;
  const schema = field.schema;
  const numeric = (schema.type === 'number' || schema.type === 'integer') && !isRating(schema);
  const describedBy =
    [
      field.description === undefined ? undefined : helpId(field.name),
      numeric ? formatId(field.name) : undefined,
      invalid ? errorId(field.name) : undefined,
    ]
      .filter((part) => part !== undefined)
      .join(' ') || undefined;
  const required = field.required !== false;
  const aria = { 'aria-describedby': describedBy, 'aria-invalid': invalid ? 'true' : undefined };

  if (schema.type === 'boolean') {
    return (
      <div class={invalid ? 'field invalid' : 'field'}>
        <ErrorText name={field.name} messages={errors} />
        <div class="choice">
          <input
            type="checkbox"
            id={id}
            name={field.name}
            value="on"
            checked={asChecked(value, posted !== undefined)}
            {...aria}
          />
          <label for={id}>
            <AgentText text={field.label} locale={locale} />
          </label>
        </div>
        <Help field={field} locale={locale} />
      </div>
    );
  }

  const group = groupOptions(field);
  if (group) {
    const selected = asSet(value);
    return (
      <fieldset class={invalid ? 'field invalid' : 'field'} aria-describedby={describedBy}>
        <legend>
          <AgentText text={field.label} locale={locale} />
          {required && group.kind !== 'checkbox' ? <RequiredMark text={m.t('answer.form.required')} /> : null}
          {required && group.kind === 'checkbox' ? <RequiredMark text={m.t('answer.form.chooseAtLeastOne')} /> : null}
        </legend>
        <Help field={field} locale={locale} />
        <ErrorText name={field.name} messages={errors} />
        <div class={group.kind === 'rating' ? 'rating' : 'options'}>
          {group.options.map((option, index) => {
            const optionId = index === 0 ? id : `${id}-${index}`;
            const input = (
              <input
                type={group.kind === 'checkbox' ? 'checkbox' : 'radio'}
                id={optionId}
                name={field.name}
                value={option.value}
                checked={selected.has(option.value)}
                required={group.kind !== 'checkbox' && required}
                aria-invalid={invalid ? 'true' : undefined}
              />
            );
            return group.kind === 'rating' ? (
              <label for={optionId}>
                {input}
                <span>{option.label}</span>
              </label>
            ) : (
              <div class="choice">
                {input}
                <label for={optionId}>
                  <AgentText text={option.label} locale={locale} />
                </label>
              </div>
            );
          })}
        </div>
        {group.kind === 'rating' ? (
          <p class="hint scale">
            <span>{m.t('answer.form.ratingLowest', { value: 1 })}</span>
            <span>{m.t('answer.form.ratingHighest', { value: 5 })}</span>
          </p>
        ) : null}
      </fieldset>
    );
  }

  return (
    <div class={invalid ? 'field invalid' : 'field'}>
      <label for={id}>
        <AgentText text={field.label} locale={locale} />
        {required ? <RequiredMark text={m.t('answer.form.required')} /> : null}
      </label>
      <Help field={field} locale={locale} />
      {numeric && (schema.type === 'number' || schema.type === 'integer') ? (
        <p class="hint" id={formatId(field.name)}>
          {numberHint(m, schema.type, schema.minimum, schema.maximum)}
        </p>
      ) : null}
      <ErrorText name={field.name} messages={errors} />
      <SingleControl field={field} id={id} value={value} required={required} aria={aria} locale={locale} />
    </div>
  );
}

type Group = { kind: 'radio' | 'checkbox' | 'rating'; options: Option[] };

/** The fields shown as a group of options under a legend, or undefined for one control. */
function groupOptions(field: FieldView): Group | undefined {
  const schema = field.schema;
  if (schema.type === 'array') return { kind: 'checkbox', options: optionsOf(schema.items.enum, schema.items.option_labels) };
  if (schema.type === 'string' && schema.enum !== undefined && schema.enum.length <= RADIO_MAX_OPTIONS)
    return { kind: 'radio', options: optionsOf(schema.enum, schema.option_labels) };
  if (isRating(schema)) return { kind: 'rating', options: ['1', '2', '3', '4', '5'].map((n) => ({ value: n, label: n })) };
  return undefined;
}

interface SingleControlProps {
  field: FieldView;
  id: string;
  value: RawValue;
  required: boolean;
  aria: { 'aria-describedby': string | undefined; 'aria-invalid': string | undefined };
  locale?: string | undefined;
}

/** A field that is one control: select (many options), textarea, number or text input. */
function SingleControl({ field, id, value, required, aria, locale }: SingleControlProps) {
  const m = useMessages();
  const schema = field.schema;
  const text = asText(value);
  if (schema.type === 'string' && schema.enum !== undefined) {
    const options = optionsOf(schema.enum, schema.option_labels);
    const known = options.some((option) => option.value === text);
    return (
      <select id={id} name={field.name} required={required} {...aria}>
        <option value="" selected={!known}>
          {m.t('answer.form.choose')}
        </option>
        {options.map((option) => (
          <option value={option.value} selected={option.value === text} dir={textDir(option.label)} lang={locale}>
            {option.label}
          </option>
        ))}
      </select>
    );
  }
  if (schema.type === 'number' || schema.type === 'integer') {
    // A text box, not type="number": that one reads and writes numbers in the browser's locale,
    // not the page's, and drops what it cannot parse. Here the person types the number as the
    // page's language writes it ("3,5" on a German page); the server reads it in that language.
    return (
      <input
        type="text"
        id={id}
        name={field.name}
        value={typeof value === 'number' ? localNumber(m, value) : text}
        inputmode={schema.type === 'integer' ? 'numeric' : 'decimal'}
        autocomplete="off"
        required={required}
        {...aria}
      />
    );
  }
  if (field.multiline === true) {
    // The HTML parser drops one newline right after <textarea>, so one is always given to it.
    return (
      <textarea id={id} name={field.name} rows={6} required={required} dir="auto" {...aria}>
        {`\n${text}`}
      </textarea>
    );
  }
  const type = textInputType(schema.type === 'string' ? schema.format : undefined, text);
  // No HTML `pattern` attribute: the browser would run the agent's pattern on its own
  // backtracking engine (a hostile pattern can freeze the person's tab), anchored as ^(?:…)$ and
  // with the v flag, so its verdict could differ from the server's RE2 check, which JSON Schema
  // leaves unanchored. The server's inline error is the one answer the person gets.
  return (
    <input
      type={type}
      id={id}
      name={field.name}
      value={text}
      required={required}
      autocomplete={field.name === 'respondent_name' ? 'name' : 'off'}
      // Free text takes its direction from what is typed; e-mail, URL and date boxes stay left-to-right.
      dir={type === 'text' ? 'auto' : undefined}
      {...aria}
    />
  );
}
