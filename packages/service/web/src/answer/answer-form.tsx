import { Isolate, textDir } from '../isolate.tsx';
import { DisplayBlock } from './blocks.tsx';
import { FieldInput, fieldId } from './field-input.tsx';
import { PhoneHandoff } from './phone-handoff.tsx';
import type { ActionView, AnswerErrorView, ChatFrame, FieldView, OpenPageView, SurfaceView } from './view.ts';

/** Names of the form's own hidden inputs. Field names start with a letter, so these never collide. */
export const FORM_FIELDS = { csrf: '_csrf', revision: '_revision', action: '_action', passkey: '_passkey' } as const;

/** The button a surface without `actions` shows (as @sess/surface's DEFAULT_SUBMIT_ACTION). */
const DEFAULT_ACTIONS: readonly ActionView[] = [{ id: 'submit', label: 'Submit', intent: 'submit' }];

/**
 * The buttons in the order they are placed: forward actions first, so Enter in a text box
 * (which presses the first button) never rejects; the agent's order is kept otherwise.
 */
export function orderActions(actions: readonly ActionView[]): ActionView[] {
  return [...actions.filter((a) => a.intent !== 'reject'), ...actions.filter((a) => a.intent === 'reject')];
}

function ActionButton({ action }: { action: ActionView }) {
  const primary = action.intent === 'approve' || action.intent === 'submit';
  return (
    <button
      type="submit"
      name={FORM_FIELDS.action}
      value={action.id}
      class={primary ? 'primary' : 'secondary'}
      // A reject may leave required fields empty, so the browser must not hold it back.
      formnovalidate={action.intent === 'reject'}
      dir={textDir(action.label)}
    >
      {action.label}
    </button>
  );
}

/** The list of problems above the form, each linked to its field. */
function ErrorSummary({ errors, fields }: { errors: readonly AnswerErrorView[]; fields: ReadonlyMap<string, FieldView> }) {
  return (
    <div class="banner error" role="alert" id="error-summary" tabindex={-1}>
      <p class="status">There is a problem</p>
      <ul>
        {errors.map((error) => {
          const field = error.field === null ? undefined : fields.get(error.field);
          return field ? (
            <li>
              <a href={`#${fieldId(field.name)}`}>
                <Isolate text={field.label} />
                {`: ${error.message}`}
              </a>
            </li>
          ) : (
            <li>{error.message}</li>
          );
        })}
      </ul>
    </div>
  );
}

function closesIn(expiresAt: Date, now: Date): string {
  const left = expiresAt.getTime() - now.getTime();
  if (left < 60_000) return 'This link closes in less than a minute.';
  const minutes = Math.round(left / 60_000);
  if (minutes < 90) return `This link closes in about ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `This link closes in about ${hours} hours.`;
  return `This link closes in about ${Math.round(hours / 24)} days.`;
}

/**
 * The form of one step: title, description, components in order, hidden form state, buttons.
 * In the chat (`chat`) the form has no action and no CSRF token: the view's script sends it.
 */
export function AnswerForm({ view, chat }: { view: OpenPageView; chat?: ChatFrame | undefined }) {
  const surface: SurfaceView = view.surface;
  const errors = view.errors ?? [];
  const fields = new Map(
    surface.source.components.filter((c): c is FieldView => c.type === 'field').map((field) => [field.name, field] as const),
  );
  const byField = new Map<string, string[]>();
  for (const error of errors) {
    if (error.field === null || !fields.has(error.field)) continue;
    byField.set(error.field, [...(byField.get(error.field) ?? []), error.message]);
  }
  const actions = orderActions(surface.actions ?? DEFAULT_ACTIONS);
  const closing = view.expiresAt && view.now ? closesIn(view.expiresAt, view.now) : undefined;
  return (
    <>
      {chat?.link ? <PhoneHandoff link={chat.link} inChat /> : view.link && !chat ? <PhoneHandoff link={view.link} /> : null}
      <div
        class="card"
        data-follow-revision={String(view.revision)}
        data-follow-shown={String(view.revision)}
        data-follow-state="open"
        data-follow-keep=""
        data-follow-kind={view.respondent ? 'respondent' : 'interaction'}
      >
        {/* The follow script writes here when the session moves on while the form is open. */}
        <div class="follow-notice" data-follow-notice="" role="status" aria-live="polite" />
        {errors.length > 0 ? <ErrorSummary errors={errors} fields={fields} /> : null}
        <h1 dir={textDir(surface.title)}>{surface.title}</h1>
        {surface.description === undefined ? null : (
          <p class="lead" dir={textDir(surface.description)}>
            {surface.description}
          </p>
        )}
        <form method="post" action={chat ? undefined : view.form.action} data-chat-form={chat ? '' : undefined}>
          {chat ? null : <input type="hidden" name={FORM_FIELDS.csrf} value={view.form.csrf} />}
          <input type="hidden" name={FORM_FIELDS.revision} value={String(view.revision)} />
          {surface.source.components.map((component) =>
            component.type === 'field' ? (
              <FieldInput field={component} posted={view.posted} errors={byField.get(component.name)} />
            ) : (
              <DisplayBlock component={component} />
            ),
          )}
          {view.passkeyNext && !chat ? (
            <p class="muted">
              After you choose, your device asks for your passkey to confirm this answer; nothing is sent before that.
            </p>
          ) : null}
          <div class="actions">
            {actions.map((action) => (
              <ActionButton action={action} />
            ))}
          </div>
        </form>
        {closing ? <p class="muted expires">{closing}</p> : null}
      </div>
    </>
  );
}
