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
        Sign out
      </button>
    </form>
  );
}

/** A date as people read it in a table: `2026-05-01 14:03 UTC`. */
export function formatWhen(date: Date | null, never = 'Never'): string {
  if (!date) return never;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The document string of a page (render-document.ts), here beside the other page parts. */
export { toDocument } from '../render-document.ts';
