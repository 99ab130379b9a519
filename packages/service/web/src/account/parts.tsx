import type { Child } from 'hono/jsx';
import type { MessageKey } from '../i18n/catalog-types.ts';
import type { MessageValues } from '../i18n/messages.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { ACCOUNT_FORM_FIELDS } from './view.ts';

/** The ids a field's message is reached by (for `aria-describedby`). */
export function errorId(field: string): string {
  return `${field}-error`;
}

export interface TextFieldProps {
  id: string;
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  value?: string | undefined;
  autocomplete: string;
  /** This field's own message. */
  error?: string | undefined;
  /** Other elements describing this field (a hint, a form-level error). */
  describedBy?: string[];
  /** Marks the field invalid even without its own message (a form-level error covers it). */
  invalid?: boolean;
  hint?: string;
  required?: boolean;
  maxlength?: number;
  minlength?: number;
  autofocus?: boolean;
}

/**
 * A labelled input. An error sets `aria-invalid` and is linked by `aria-describedby`, so a
 * screen reader reads it with the field; the message sits right below the label.
 */
export function TextField(props: TextFieldProps) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const describedBy = [...(hintId ? [hintId] : []), ...(props.error ? [errorId(props.id)] : []), ...(props.describedBy ?? [])];
  const invalid = Boolean(props.error) || Boolean(props.invalid);
  return (
    <div class={invalid ? 'field invalid' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p class="error" id={errorId(props.id)}>
          {props.error}
        </p>
      ) : null}
      <input
        id={props.id}
        name={props.name}
        type={props.type}
        value={props.value ?? ''}
        autocomplete={props.autocomplete}
        required={props.required ?? true}
        maxlength={props.maxlength}
        minlength={props.minlength}
        autofocus={props.autofocus}
        spellcheck={props.type === 'password' || props.type === 'email' ? false : undefined}
        autocapitalize={props.type === 'text' ? undefined : 'none'}
        // A name the person types (an API key's) takes its direction from what is typed.
        dir={props.type === 'text' ? 'auto' : undefined}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
      />
    </div>
  );
}

/** The hidden CSRF field every account form carries. */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={ACCOUNT_FORM_FIELDS.csrf} value={token} />;
}

/** A problem with the whole form, announced when the page loads. */
export function FormError({ id, message }: { id: string; message: string }) {
  return (
    <div class="banner error" role="alert" id={id}>
      <p>{message}</p>
    </div>
  );
}

/** One line of an error summary: the message, linked to the field it is about (or to nothing: the whole form). */
export interface SummaryItem {
  message: string;
  /** The id of the field to jump to. */
  field?: string | undefined;
}

/**
 * The error summary after a failed post: a heading and each problem, linked to its field. It
 * takes focus when the page loads (`autofocus` on a `tabindex=-1` box, no script needed), so a
 * screen reader reads it first and a keyboard user starts from it. `id` is what fields point
 * at with `aria-describedby` for a problem with the whole form.
 */
export function ErrorSummary({ id, items }: { id: string; items: readonly SummaryItem[] }) {
  const m = useMessages();
  if (items.length === 0) return null;
  return (
    <div class="banner error error-summary" role="alert" aria-labelledby={`${id}-title`} tabindex={-1} autofocus id={id}>
      <h2 id={`${id}-title`}>{m.t('account.errors.summaryTitle', { count: items.length })}</h2>
      <ul>
        {items.map((item) => (
          <li>{item.field ? <a href={`#${item.field}`}>{item.message}</a> : item.message}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A whole catalog sentence with elements inside it (a name in `<strong>`, a link): each
 * `elements` placeholder is formatted as a marker, then the sentence is split around the
 * markers, so the sentence stays one message and its words stay in the translator's order.
 */
export function Sentence({ id, values, elements }: { id: MessageKey; values?: MessageValues; elements: Record<string, Child> }) {
  const m = useMessages();
  const markers: MessageValues = {};
  for (const name of Object.keys(elements)) markers[name] = `\u0000${name}\u0000`;
  const text = m.t(id, { ...values, ...markers });
  return <>{text.split(/\u0000(\w+)\u0000/).map((part, index) => (index % 2 === 1 ? elements[part] : part))}</>;
}

/** A calm status line (e.g. "You are signed out."). */
export function Notice({ message }: { message: string }) {
  return (
    <div class="banner ok" role="status">
      <p>{message}</p>
    </div>
  );
}

/** The "Sign out" button (a POST with its CSRF token; sign-out by GET would be a CSRF hole). */
export function SignOutForm({ csrf }: { csrf: string }) {
  return (
    <form method="post" action="/signout" class="signout">
      <CsrfField token={csrf} />
      <button type="submit" class="secondary">
        {useMessages().t('account.signOut.button')}
      </button>
    </form>
  );
}

/**
 * A date and time as the page's language writes it, in the person's time zone (from the page's
 * cookie) or in UTC, said so (`Messages.dateTime`); `never` (default "Never") for no date.
 */
export function formatWhen(date: Date | null, never?: string): string {
  const m = useMessages();
  if (!date) return never ?? m.t('account.when.never');
  return m.dateTime(date);
}

/** A date as a `<time>` element, its machine-readable value beside the words. */
export function When({ date, never }: { date: Date | null; never?: string }) {
  if (!date) return <>{formatWhen(null, never)}</>;
  return <time datetime={date.toISOString()}>{formatWhen(date)}</time>;
}

/** The document string of a page (render-document.ts), here beside the other page parts. */
export { toDocument } from '../render-document.ts';
