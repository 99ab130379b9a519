import type { Child } from 'hono/jsx';
import type { Messages } from '../i18n/messages.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { textDir } from '../isolate.tsx';
import { FORM_FIELDS } from './answer-form.tsx';
import { contentLanguage } from './content-language.ts';
import { OwnAnswer } from './own-answer.tsx';
import { OpenLinkButton, PageLink } from './page-link.tsx';
import { PhoneHandoff } from './phone-handoff.tsx';
import type {
  AnsweredPageView,
  AskLandingPageView,
  ChatFrame,
  ClosedPageView,
  FormTarget,
  LapsedPageView,
  PlainPageView,
} from './view.ts';

/** Each status takes `chat` when drawn in the agent's chat (see ChatFrame). */
type InChat = { chat?: ChatFrame | undefined };

/** The question the page was about, shown small above the status so the person knows which link this is. */
function Context({ title, locale }: { title?: string | undefined; locale?: string | undefined }) {
  return title === undefined ? null : (
    <p class="context" dir={textDir(title)} {...contentLanguage(locale)}>
      {title}
    </p>
  );
}

function Notice({ text }: { text?: string | undefined }) {
  return text === undefined ? null : (
    <p class="banner warn" role="status">
      {text}
    </p>
  );
}

interface StatusCardProps {
  tone: 'ok' | 'wait' | 'attention' | 'closed';
  heading: string;
  title?: string | undefined;
  locale?: string | undefined;
  notice?: string | undefined;
  children?: Child;
}

/** One status: a coloured mark, a heading that says it in a few words, and what to do next. */
function StatusCard({ tone, heading, title, locale, notice, children }: StatusCardProps) {
  return (
    <div class={`card status-card ${tone}`}>
      <Notice text={notice} />
      <Context title={title} locale={locale} />
      <h1>
        <span class="mark" aria-hidden="true" />
        {heading}
      </h1>
      {children}
    </div>
  );
}

/** A one-button form (extend, start) carrying its CSRF token. */
function ButtonForm({ target, label }: { target: FormTarget; label: string }) {
  return (
    <form method="post" action={target.action} class="actions">
      <input type="hidden" name={FORM_FIELDS.csrf} value={target.csrf} />
      <button type="submit" class="primary">
        {label}
      </button>
    </form>
  );
}

/**
 * Sent: waits (live with the script, by refresh without it) for the agent's next step, with the
 * person's answer and receipt. A second tab whose answer lost says so once, instead of "Sent".
 */
export function AnsweredStatus({ view, chat }: { view: AnsweredPageView } & InChat) {
  const m = useMessages();
  const kept = view.alreadyAnswered === true;
  const first = kept ? m.t('answer.status.keptFirst') : m.t('answer.status.sent');
  return (
    <StatusCard
      tone="wait"
      heading={kept ? m.t('answer.status.keptHeading') : m.t('answer.status.sentHeading')}
      title={view.title}
      locale={view.locale}
      notice={view.notice}
    >
      <div data-follow-revision={String(view.revision)} data-follow-state="answered" aria-live="polite">
        {chat ? (
          // The view asks for news itself (sess_view_status), so there is nothing to reload.
          <p>
            {first} {m.t('answer.status.nextShowsInChat')}
          </p>
        ) : (
          <>
            <p>
              {first} {m.t('answer.status.keepOpen')}
            </p>
            <p class="muted">{m.t('answer.status.closeAndReopen')}</p>
            <p>
              <a class="button secondary wide" href={view.pagePath}>
                {m.t('answer.status.checkNext')}
              </a>
            </p>
          </>
        )}
      </div>
      {view.answer ? (
        <OwnAnswer
          answer={view.answer}
          heading={kept ? m.t('answer.status.answerKept') : m.t('answer.status.yourAnswer')}
          chat={chat}
        />
      ) : null}
    </StatusCard>
  );
}

/** The outcome of an Ask that decides, in a sentence. */
function decidedLine(m: Messages, decided: 'approved' | 'rejected'): string {
  return m.t('answer.status.decided', { decided });
}

/** Completed, withdrawn or expired: the link takes no more answers. */
export function ClosedStatus({ view, chat }: { view: ClosedPageView } & InChat) {
  const m = useMessages();
  const card = { title: view.title, locale: view.locale, notice: view.notice };
  switch (view.state) {
    case 'completed':
      return (
        <StatusCard tone="ok" heading={m.t('answer.status.doneHeading')} {...card}>
          {view.alreadyAnswered ? <p>{m.t('answer.status.keptFirst')}</p> : null}
          <p>{view.alreadyAnswered ? m.t('answer.status.doneKept') : m.t('answer.status.doneYours')}</p>
          {view.decided ? <p>{decidedLine(m, view.decided)}</p> : null}
          {view.answer ? (
            <OwnAnswer
              answer={view.answer}
              heading={view.alreadyAnswered ? m.t('answer.status.answerKept') : m.t('answer.status.yourAnswer')}
              chat={chat}
            />
          ) : null}
        </StatusCard>
      );
    case 'withdrawn':
      return (
        <StatusCard tone="closed" heading={m.t('answer.status.withdrawnHeading')} {...card}>
          <p>{m.t('answer.status.withdrawn')}</p>
        </StatusCard>
      );
    case 'expired':
      if (view.decided)
        return (
          <StatusCard tone="closed" heading={m.t('answer.status.decidedHeading')} {...card}>
            <p>
              {decidedLine(m, view.decided)} {m.t('answer.status.decidedNotNeeded')}
            </p>
          </StatusCard>
        );
      return (
        <StatusCard tone="closed" heading={m.t('answer.status.closedHeading')} {...card}>
          <p>{m.t('answer.status.closed')}</p>
        </StatusCard>
      );
  }
}

/** Past its time: more time may be asked for, where the link allows it. */
export function LapsedStatus({ view, chat }: { view: LapsedPageView } & InChat) {
  const m = useMessages();
  return (
    <StatusCard
      tone="attention"
      heading={m.t('answer.status.lapsedHeading')}
      title={view.title}
      locale={view.locale}
      notice={view.notice}
    >
      {view.extend && chat ? (
        // More time is asked for on the answer page (its form carries the CSRF token the chat has not).
        chat.link ? (
          <>
            <p>{m.t('answer.status.lapsedInChat')}</p>
            <OpenLinkButton link={chat.link} label={m.t('answer.status.askMoreTime')} />
          </>
        ) : (
          <p>{m.t('answer.status.lapsedOpenLink')}</p>
        )
      ) : view.extend ? (
        <>
          <p>{m.t('answer.status.lapsedExtend')}</p>
          <ButtonForm target={view.extend} label={m.t('answer.status.askMoreTime')} />
        </>
      ) : (
        <p>{m.t('answer.status.lapsedNoMore')}</p>
      )}
    </StatusCard>
  );
}

/** The shared link of an Ask: each browser starts its own page. */
export function AskLanding({ view, chat }: { view: AskLandingPageView } & InChat) {
  const m = useMessages();
  // An Ask is never answered in the chat: its link is for the people asked, each on their own page.
  const link = chat ? chat.link : view.link;
  const content = contentLanguage(view.locale);
  return (
    <>
      {view.start && link ? <PhoneHandoff link={link} inChat={chat !== undefined} /> : null}
      <div class="card">
        <Notice text={view.notice} />
        <h1 dir={textDir(view.title)} {...content}>
          {view.title}
        </h1>
        {view.description === undefined ? null : (
          <p class="lead pre" dir={textDir(view.description)} {...content}>
            {view.description}
          </p>
        )}
        {view.start && chat ? (
          <p>{m.t('answer.ask.shareInChat')}</p>
        ) : view.start ? (
          <>
            <p>{m.t('answer.ask.pressStart')}</p>
            <ButtonForm target={view.start} label={m.t('answer.ask.start')} />
          </>
        ) : view.closed === 'full' ? (
          <>
            <p>{m.t('answer.ask.full')}</p>
            {view.pagePath === undefined ? null : (
              <p>
                <PageLink class="button wide" path={view.pagePath} chat={chat}>
                  {m.t('answer.ask.tryAgain')}
                </PageLink>
              </p>
            )}
          </>
        ) : view.decided ? (
          <p>
            {decidedLine(m, view.decided)} {m.t('answer.ask.noMore')}
          </p>
        ) : (
          <p>{m.t('answer.ask.noMore')}</p>
        )}
      </div>
    </>
  );
}

/** Pages with no link behind them. Deliberately say nothing about why a link is unknown. */
export function PlainStatus({ view, chat }: { view: PlainPageView } & InChat) {
  const m = useMessages();
  switch (view.state) {
    case 'not_found':
      return (
        <StatusCard tone="closed" heading={m.t('answer.plain.notFoundHeading')}>
          <p>{m.t('answer.plain.notFound')}</p>
        </StatusCard>
      );
    case 'refused':
      return (
        <StatusCard tone="closed" heading={m.t('answer.plain.refusedHeading')}>
          <p>{m.t('answer.plain.refused')}</p>
          {view.pagePath === undefined ? null : (
            <p>
              <PageLink class="button" path={view.pagePath} chat={chat}>
                {m.t('answer.plain.openAgain')}
              </PageLink>
            </p>
          )}
        </StatusCard>
      );
    case 'too_large':
      return (
        <StatusCard tone="closed" heading={m.t('answer.plain.tooLargeHeading')}>
          <p>{m.t('answer.plain.tooLarge')}</p>
          {view.pagePath === undefined ? null : (
            <p>
              <PageLink class="button" path={view.pagePath} chat={chat}>
                {m.t('answer.plain.openAgain')}
              </PageLink>
            </p>
          )}
        </StatusCard>
      );
    case 'someone_else':
      return (
        <StatusCard tone="closed" heading={m.t('answer.plain.someoneElseHeading')}>
          <p>{m.t('answer.plain.someoneElse')}</p>
          <p>{m.t('answer.plain.someoneElseWhat')}</p>
          {view.accountPath === undefined ? null : (
            <p>
              <a class="button" href={view.accountPath}>
                {m.t('answer.plain.openAccount')}
              </a>
            </p>
          )}
        </StatusCard>
      );
    case 'no_passkey':
      return (
        <StatusCard tone="attention" heading={m.t('answer.plain.noPasskeyHeading')}>
          <p>{m.t('answer.plain.noPasskey')}</p>
          <p>{m.t('answer.plain.noPasskeyWhat')}</p>
          {view.accountPath === undefined ? null : (
            <p>
              <a class="button" href={view.accountPath}>
                {m.t('answer.plain.addPasskey')}
              </a>
            </p>
          )}
        </StatusCard>
      );
    case 'unavailable':
      return (
        <StatusCard tone="closed" heading={m.t('answer.plain.unavailableHeading')}>
          <p>{m.t('answer.plain.unavailable')}</p>
        </StatusCard>
      );
  }
}
