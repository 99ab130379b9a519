import { isolateText } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { toDocument } from '../render-document.ts';
import { AnswerForm } from './answer-form.tsx';
import { FOLLOW_SCRIPT } from './follow-script.ts';
import { PasskeyConfirm } from './passkey-confirm.tsx';
import { PASSKEY_CONFIRM_SCRIPT } from './passkey-confirm-script.ts';
import { AnsweredStatus, AskLanding, ClosedStatus, LapsedStatus, PlainStatus } from './status-pages.tsx';
import type { AnswerPageView, ChatFrame } from './view.ts';

/** The browser tab's title for each state; the agent's title follows where there is one. */
function documentTitle(view: AnswerPageView): string {
  switch (view.state) {
    case 'open': {
      const title = isolateText(view.surface.title);
      return view.errors && view.errors.length > 0 ? `Error: ${title}` : title;
    }
    case 'passkey_confirm':
      return `${view.error === undefined ? '' : 'Error: '}Confirm with your passkey: ${isolateText(view.surface.title)}`;
    case 'answered':
      return `Sent: ${isolateText(view.title)}`;
    case 'completed':
      return view.title === undefined ? 'Done' : `Done: ${isolateText(view.title)}`;
    case 'withdrawn':
      return 'Withdrawn';
    case 'expired':
      return view.decided ? 'Already decided' : 'Link closed';
    case 'lapsed':
      return `Time ran out: ${isolateText(view.title)}`;
    case 'ask':
      return isolateText(view.title);
    case 'not_found':
      return 'Not found';
    case 'refused':
      return 'Page out of date';
    case 'too_large':
      return 'Too much to send';
    case 'unavailable':
      return 'Try again';
    case 'someone_else':
      return 'This form is for someone else';
    case 'no_passkey':
      return 'Add a passkey to answer';
  }
}

/** What the page's <main> holds for each state; the chat view draws the same with `chat` set. */
export function AnswerBody({ view, chat }: { view: AnswerPageView; chat?: ChatFrame | undefined }) {
  switch (view.state) {
    case 'open':
      return <AnswerForm view={view} chat={chat} />;
    case 'passkey_confirm':
      return <PasskeyConfirm view={view} />;
    case 'answered':
      return <AnsweredStatus view={view} chat={chat} />;
    case 'completed':
    case 'withdrawn':
    case 'expired':
      return <ClosedStatus view={view} chat={chat} />;
    case 'lapsed':
      return <LapsedStatus view={view} chat={chat} />;
    case 'ask':
      return <AskLanding view={view} chat={chat} />;
    case 'not_found':
    case 'refused':
    case 'too_large':
    case 'unavailable':
    case 'someone_else':
    case 'no_passkey':
      return <PlainStatus view={view} chat={chat} />;
  }
}

export interface AnswerPageProps {
  view: AnswerPageView;
  /** This response's CSP nonce; the waiting page's follow script runs under it. */
  nonce: string;
}

/** The whole answer page for one state, in the shared Page shell. */
export function AnswerPage({ view, nonce }: AnswerPageProps) {
  const script =
    view.state === 'answered' || view.state === 'open'
      ? FOLLOW_SCRIPT
      : view.state === 'passkey_confirm'
        ? PASSKEY_CONFIRM_SCRIPT
        : undefined;
  return (
    <Page title={`${documentTitle(view)} · Sess`} nonce={nonce} script={script}>
      <AnswerBody view={view} />
    </Page>
  );
}

/** The answer page as an HTML document string (with its doctype), ready to send. */
export function renderAnswerPage(view: AnswerPageView, nonce: string): string {
  return toDocument(<AnswerPage view={view} nonce={nonce} />);
}
