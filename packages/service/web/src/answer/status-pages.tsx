import type { Child } from 'hono/jsx';
import { textDir } from '../isolate.tsx';
import { FORM_FIELDS } from './answer-form.tsx';
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

/** Said once, in place of "Sent", when this browser's answer lost to one sent first. */
const KEPT_FIRST = 'This question already had an answer, so this one was not sent: the first answer sent is the one kept.';

/** The question the page was about, shown small above the status so the person knows which link this is. */
function Context({ title }: { title?: string | undefined }) {
  return title === undefined ? null : (
    <p class="context" dir={textDir(title)}>
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
  notice?: string | undefined;
  children?: Child;
}

/** One status: a coloured mark, a heading that says it in a few words, and what to do next. */
function StatusCard({ tone, heading, title, notice, children }: StatusCardProps) {
  return (
    <div class={`card status-card ${tone}`}>
      <Notice text={notice} />
      <Context title={title} />
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
  const kept = view.alreadyAnswered === true;
  return (
    <StatusCard
      tone="wait"
      heading={kept ? 'Already answered — waiting for the next step' : 'Sent — waiting for the next step'}
      title={view.title}
      notice={view.notice}
    >
      <div data-follow-revision={String(view.revision)} data-follow-state="answered" aria-live="polite">
        {chat ? (
          // The view asks for news itself (sess_view_status), so there is nothing to reload.
          <p>{kept ? KEPT_FIRST : 'Your answer was sent.'} The next step, if there is one, shows here.</p>
        ) : (
          <>
            <p>{kept ? KEPT_FIRST : 'Your answer was sent.'} Keep this page open: the next step, if there is one, shows here.</p>
            <p class="muted">You can also close it and open the link again later.</p>
            <p>
              <a class="button secondary wide" href={view.pagePath}>
                Check for the next step
              </a>
            </p>
          </>
        )}
      </div>
      {view.answer ? <OwnAnswer answer={view.answer} heading={kept ? 'The answer kept' : 'Your answer'} chat={chat} /> : null}
    </StatusCard>
  );
}

/** The outcome of an Ask that decides, in a sentence. */
function decidedLine(decided: 'approved' | 'rejected'): string {
  return `This was decided: ${decided === 'approved' ? 'approved' : 'rejected'}.`;
}

/** Completed, withdrawn or expired: the link takes no more answers. */
export function ClosedStatus({ view, chat }: { view: ClosedPageView } & InChat) {
  switch (view.state) {
    case 'completed':
      return (
        <StatusCard tone="ok" heading="Done" title={view.title} notice={view.notice}>
          {view.alreadyAnswered ? <p>{KEPT_FIRST}</p> : null}
          <p>The agent has {view.alreadyAnswered ? 'that' : 'your'} answer. Nothing more is needed: you can close this page.</p>
          {view.decided ? <p>{decidedLine(view.decided)}</p> : null}
          {view.answer ? (
            <OwnAnswer answer={view.answer} heading={view.alreadyAnswered ? 'The answer kept' : 'Your answer'} chat={chat} />
          ) : null}
        </StatusCard>
      );
    case 'withdrawn':
      return (
        <StatusCard tone="closed" heading="The question was withdrawn" title={view.title} notice={view.notice}>
          <p>The agent no longer needs an answer here. Nothing more to do: you can close this page.</p>
        </StatusCard>
      );
    case 'expired':
      if (view.decided)
        return (
          <StatusCard tone="closed" heading="Already decided" title={view.title} notice={view.notice}>
            <p>{decidedLine(view.decided)} Your answer is no longer needed: you can close this page.</p>
          </StatusCard>
        );
      return (
        <StatusCard tone="closed" heading="This link has closed" title={view.title} notice={view.notice}>
          <p>The time to answer is over, so this link takes no more answers. If it is still needed, ask for a new link.</p>
        </StatusCard>
      );
  }
}

/** Past its time: more time may be asked for, where the link allows it. */
export function LapsedStatus({ view, chat }: { view: LapsedPageView } & InChat) {
  return (
    <StatusCard tone="attention" heading="The time to answer ran out" title={view.title} notice={view.notice}>
      {view.extend && chat ? (
        // More time is asked for on the answer page (its form carries the CSRF token the chat has not).
        chat.link ? (
          <>
            <p>You can still answer: ask for more time on the answer page and the form opens again.</p>
            <OpenLinkButton link={chat.link} label="Ask for more time" />
          </>
        ) : (
          <p>You can still answer: open the link you were given and ask for more time there.</p>
        )
      ) : view.extend ? (
        <>
          <p>You can still answer: ask for more time and the form opens again.</p>
          <ButtonForm target={view.extend} label="Ask for more time" />
        </>
      ) : (
        <p>This link takes no more answers. If it is still needed, ask for a new link.</p>
      )}
    </StatusCard>
  );
}

/** The shared link of an Ask: each browser starts its own page. */
export function AskLanding({ view, chat }: { view: AskLandingPageView } & InChat) {
  // An Ask is never answered in the chat: its link is for the people asked, each on their own page.
  const link = chat ? chat.link : view.link;
  return (
    <>
      {view.start && link ? <PhoneHandoff link={link} inChat={chat !== undefined} /> : null}
      <div class="card">
        <Notice text={view.notice} />
        <h1 dir={textDir(view.title)}>{view.title}</h1>
        {view.description === undefined ? null : (
          <p class="lead pre" dir={textDir(view.description)}>
            {view.description}
          </p>
        )}
        {view.start && chat ? (
          <p>Each person answers on their own page: share the link with the people you ask.</p>
        ) : view.start ? (
          <>
            <p>Press Start to open your own answer page. Others who have this link answer on their own pages.</p>
            <ButtonForm target={view.start} label="Start" />
          </>
        ) : view.closed === 'full' ? (
          <>
            <p>Every place is taken right now. If someone does not answer in time, their place comes back: try again later.</p>
            {view.pagePath === undefined ? null : (
              <p>
                <PageLink class="button wide" path={view.pagePath} chat={chat}>
                  Try again
                </PageLink>
              </p>
            )}
          </>
        ) : view.decided ? (
          <p>{decidedLine(view.decided)} This question takes no more answers.</p>
        ) : (
          <p>This question takes no more answers.</p>
        )}
      </div>
    </>
  );
}

/** Pages with no link behind them. Deliberately say nothing about why a link is unknown. */
export function PlainStatus({ view, chat }: { view: PlainPageView } & InChat) {
  switch (view.state) {
    case 'not_found':
      return (
        <StatusCard tone="closed" heading="There is nothing here">
          <p>This link is not valid. Check that you opened the whole link you were given.</p>
        </StatusCard>
      );
    case 'refused':
      return (
        <StatusCard tone="closed" heading="This page was out of date">
          <p>Your answer was not sent. Open the page again and send it from there.</p>
          {view.pagePath === undefined ? null : (
            <p>
              <PageLink class="button" path={view.pagePath} chat={chat}>
                Open the page again
              </PageLink>
            </p>
          )}
        </StatusCard>
      );
    case 'too_large':
      return (
        <StatusCard tone="closed" heading="That was too much to send">
          <p>Your answer was not sent. Shorten it and send it again.</p>
          {view.pagePath === undefined ? null : (
            <p>
              <PageLink class="button" path={view.pagePath} chat={chat}>
                Open the page again
              </PageLink>
            </p>
          )}
        </StatusCard>
      );
    case 'someone_else':
      return (
        <StatusCard tone="closed" heading="This form is for someone else">
          <p>
            It must be answered by the person it was made for, signed in to Sess. The account signed in on this browser is not
            theirs, so nothing was sent and nothing changed.
          </p>
          <p>If the form is for you, sign out and sign in with your own account, then open the link again.</p>
          {view.accountPath === undefined ? null : (
            <p>
              <a class="button" href={view.accountPath}>
                Open your account
              </a>
            </p>
          )}
        </StatusCard>
      );
    case 'no_passkey':
      return (
        <StatusCard tone="attention" heading="Add a passkey to answer">
          <p>
            This form must be confirmed with your passkey, and your Sess account has none yet. Nothing was sent and nothing
            changed.
          </p>
          <p>Add a passkey on your account, then open the link again and answer.</p>
          {view.accountPath === undefined ? null : (
            <p>
              <a class="button" href={view.accountPath}>
                Add a passkey
              </a>
            </p>
          )}
        </StatusCard>
      );
    case 'unavailable':
      return (
        <StatusCard tone="closed" heading="Something went wrong on our side">
          <p>Nothing was lost. Try again in a moment.</p>
        </StatusCard>
      );
  }
}
