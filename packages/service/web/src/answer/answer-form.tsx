import type { Messages } from '../i18n/messages.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate, textDir } from '../isolate.tsx';
import { DisplayBlock } from './blocks.tsx';
import { contentLanguage } from './content-language.ts';
import { errorText } from './error-text.ts';
import { FieldInput, fieldId } from './field-input.tsx';
import { followWords } from './follow-words.ts';
import { PhoneHandoff } from './phone-handoff.tsx';
import { SLOT, withSlot } from './slot.tsx';
import type { ActionView, AnswerErrorView, ChatFrame, FieldView, OpenPageView, SurfaceView } from './view.ts';

/** Names of the form's own hidden inputs. Field names start with a letter, so these never collide. */
export const FORM_FIELDS = { csrf: '_csrf', revision: '_revision', action: '_action', passkey: '_passkey' } as const;

/** The button a surface without `actions` shows (as @sess/surface's DEFAULT_SUBMIT_ACTION), its label in the page's language. */
function defaultActions(m: Messages): readonly ActionView[] {
  return [{ id: 'submit', label: m.t('answer.form.submit'), intent: 'submit' }];
}

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
/**
 * The list of problems above the form, each linked to its field. After a refused post it takes
 * the focus (the page's script), so a screen reader reads it first and a keyboard starts there.
 */
function ErrorSummary({ errors, fields }: { errors: readonly AnswerErrorView[]; fields: ReadonlyMap<string, FieldView> }) {
  const m = useMessages();
  return (
    <div class="banner error" role="alert" id={ERROR_SUMMARY_ID} tabindex={-1} aria-labelledby="error-summary-heading">
      <h2 class="status" id="error-summary-heading">
        {m.t('answer.errors.heading')}
      </h2>
      <ul>
        {errors.map((error) => {
          const field = error.field === null ? undefined : fields.get(error.field);
          return field ? (
            <li>
              <a href={`#${fieldId(field.name)}`}>
                {withSlot(
                  m.t('answer.errors.item', { label: SLOT, message: errorText(m, error) }),
                  <Isolate text={field.label} />,
                )}
              </a>
            </li>
          ) : (
            <li>{errorText(m, error)}</li>
          );
        })}
      </ul>
    </div>
  );
}

/** The error summary's id: the page's script moves the focus to it after a refused post. */
export const ERROR_SUMMARY_ID = 'error-summary';

/** "This link closes in about …", rounded as a person would say it, in the page's language. */
function closesIn(m: Messages, expiresAt: Date, now: Date): string {
  const left = expiresAt.getTime() - now.getTime();
  if (left < 60_000) return m.t('answer.form.closesSoon');
  const minutes = Math.round(left / 60_000);
  if (minutes < 90) return m.t('answer.form.closesInMinutes', { minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return m.t('answer.form.closesInHours', { hours });
  return m.t('answer.form.closesInDays', { days: Math.round(hours / 24) });
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
  const m = useMessages();
  const byField = new Map<string, string[]>();
  for (const error of errors) {
    if (error.field === null || !fields.has(error.field)) continue;
    byField.set(error.field, [...(byField.get(error.field) ?? []), errorText(m, error)]);
  }
  const actions = orderActions(surface.actions ?? defaultActions(m));
  const closing = view.expiresAt && view.now ? closesIn(m, view.expiresAt, view.now) : undefined;
  // The agent's own words are in the form's language (its `locale`), which may differ from the page's.
  const content = contentLanguage(surface.locale);
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
        data-follow-words={followWords(m)}
      >
        {/* The follow script writes here when the session moves on while the form is open. */}
        <div class="follow-notice" data-follow-notice="" role="status" aria-live="polite" />
        {errors.length > 0 ? <ErrorSummary errors={errors} fields={fields} /> : null}
        <h1 dir={textDir(surface.title)} {...content}>
          {surface.title}
        </h1>
        {surface.description === undefined ? null : (
          <p class="lead" dir={textDir(surface.description)} {...content}>
            {surface.description}
          </p>
        )}
        <form
          method="post"
          action={chat ? undefined : view.form.action}
          data-chat-form={chat ? '' : undefined}
          data-error-summary={errors.length > 0 ? ERROR_SUMMARY_ID : undefined}
        >
          {chat ? null : <input type="hidden" name={FORM_FIELDS.csrf} value={view.form.csrf} />}
          <input type="hidden" name={FORM_FIELDS.revision} value={String(view.revision)} />
          {surface.source.components.map((component) =>
            component.type === 'field' ? (
              <FieldInput field={component} posted={view.posted} errors={byField.get(component.name)} locale={surface.locale} />
            ) : (
              <DisplayBlock component={component} locale={surface.locale} />
            ),
          )}
          {view.passkeyNext && !chat ? <p class="muted">{m.t('answer.form.passkeyNext')}</p> : null}
          <div class="actions" {...(surface.actions ? content : {})}>
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
