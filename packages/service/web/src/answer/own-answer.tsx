import type { AnswerValue } from '@sess/surface';
import type { Messages } from '../i18n/messages.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { textDir } from '../isolate.tsx';
import { isRating, localNumber, optionsOf } from './field-input.tsx';
import { PageLink } from './page-link.tsx';
import { SLOT, withSlot } from './slot.tsx';
import type { ActionView, ChatFrame, FieldView, OwnAnswerView } from './view.ts';

/** Longer text is cut in the summary: the person sees enough to recognise their answer. */
export const SUMMARY_MAX_CHARACTERS = 200;

/** One line of the summary: the field's label and the answer as the person saw it on the form. */
export interface AnswerLine {
  label: string;
  value: string;
}

function shorten(text: string): string {
  const chars = Array.from(text);
  return chars.length <= SUMMARY_MAX_CHARACTERS ? text : `${chars.slice(0, SUMMARY_MAX_CHARACTERS).join('')}…`;
}

/** An answer value in the form's own words: option labels for choices, Yes/No, "4 of 5" (Sess's words in the page's language). */
function describeValue(m: Messages, field: FieldView, value: AnswerValue | undefined): string {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return m.t('answer.own.noAnswer');
  const schema = field.schema;
  if (typeof value === 'boolean') return value ? m.t('answer.own.yes') : m.t('answer.own.no');
  if (Array.isArray(value)) {
    const options = schema.type === 'array' ? optionsOf(schema.items.enum, schema.items.option_labels) : [];
    return m.list(value.map((id) => options.find((option) => option.value === id)?.label ?? id));
  }
  if (typeof value === 'number') return isRating(schema) ? m.t('answer.own.ratingOf', { value, max: 5 }) : localNumber(m, value);
  if (schema.type === 'string' && schema.enum !== undefined) {
    return optionsOf(schema.enum, schema.option_labels).find((option) => option.value === value)?.label ?? value;
  }
  return shorten(value);
}

/**
 * The person's own answer, field by field in the form's order, and the button they pressed when
 * pressing it was a choice: a form with one button (its `submit_label`, "Send", or the default
 * Submit) only sends, so that label is not part of the answer.
 */
export function summarizeAnswer(answer: Pick<OwnAnswerView, 'surface' | 'actionId' | 'values'>): {
  action: string | undefined;
  lines: AnswerLine[];
} {
  const m = useMessages();
  const fields = answer.surface.source.components.filter((c): c is FieldView => c.type === 'field');
  const actions: readonly ActionView[] = answer.surface.actions ?? [];
  const choseAButton = actions.length > 1;
  return {
    action: choseAButton ? actions.find((action) => action.id === answer.actionId)?.label : undefined,
    lines: fields.map((field) => ({ label: field.label, value: describeValue(m, field, answer.values[field.name]) })),
  };
}

/** What the receipt proves at each level, in the person's words (docs: what each level proves). */
function receiptProves(m: Messages, assurance: 'link' | 'account' | 'passkey'): string {
  const command = SLOT;
  switch (assurance) {
    case 'link':
      return m.t('answer.own.provesLink', { command });
    case 'account':
      return m.t('answer.own.provesAccount', { command });
    case 'passkey':
      return m.t('answer.own.provesPasskey', { command });
  }
}

/** The person's answer in short: the button they chose and each value, as the page and the confirm step show it. */
export function AnswerSummary({ answer }: { answer: Pick<OwnAnswerView, 'surface' | 'actionId' | 'values'> }) {
  const m = useMessages();
  const { action, lines } = summarizeAnswer(answer);
  return (
    <dl class="record pairs">
      {action === undefined ? null : (
        <div class="pair">
          <dt>{m.t('answer.own.youChose')}</dt>
          <dd dir={textDir(action)}>{action}</dd>
        </div>
      )}
      {lines.map((line) => (
        <div class="pair">
          <dt dir={textDir(line.label)}>{line.label}</dt>
          <dd dir={textDir(line.value)}>{line.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * "Your answer": what the person chose and sent, in short, and their receipt to keep (the
 * download is the link's own `/receipt`; the link is the capability, so only its holder sees it).
 */
export function OwnAnswer({
  answer,
  heading,
  chat,
}: {
  answer: OwnAnswerView;
  /** "Your answer" when left out. */
  heading?: string | undefined;
  /** In the chat the receipt opens on the links' origin, through the host. */
  chat?: ChatFrame | undefined;
}) {
  const m = useMessages();
  return (
    <section class="own-answer" aria-labelledby="own-answer-heading">
      <h2 id="own-answer-heading">{heading ?? m.t('answer.status.yourAnswer')}</h2>
      <AnswerSummary answer={answer} />
      <p class="receipt">
        <PageLink class="button secondary wide" path={answer.receiptPath} chat={chat} download>
          {m.t('answer.own.download')}
        </PageLink>
      </p>
      <p class="muted">
        {withSlot(receiptProves(m, answer.assurance ?? 'link'), <code>{'npx sess receipt verify <file>'}</code>)}
      </p>
    </section>
  );
}
