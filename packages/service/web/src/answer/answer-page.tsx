import type { Messages } from '../i18n/messages.ts';
import { inLanguage, useMessages } from '../i18n/render-scope.ts';
import { isolateText } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { toDocument } from '../render-document.ts';
import { AnswerForm } from './answer-form.tsx';
import { FOLLOW_SCRIPT } from './follow-script.ts';
import { PasskeyConfirm } from './passkey-confirm.tsx';
import { PASSKEY_CONFIRM_SCRIPT } from './passkey-confirm-script.ts';
import { AnsweredStatus, AskLanding, ClosedStatus, LapsedStatus, PlainStatus } from './status-pages.tsx';
import type { AnswerPageView, ChatFrame } from './view.ts';

/** The browser tab's title for each state, in the page's language; the agent's title follows where there is one. */
function documentTitle(view: AnswerPageView, m: Messages): string {
  switch (view.state) {
    case 'open': {
      const title = isolateText(view.surface.title);
      return view.errors && view.errors.length > 0 ? m.t('answer.title.error', { title }) : title;
    }
    case 'passkey_confirm': {
      const title = isolateText(view.surface.title);
      return m.t(view.refusal === undefined ? 'answer.title.passkey' : 'answer.title.passkeyError', { title });
    }
    case 'answered':
      return m.t('answer.title.answered', { title: isolateText(view.title) });
    case 'completed':
      return view.title === undefined
        ? m.t('answer.title.done')
        : m.t('answer.title.doneWith', { title: isolateText(view.title) });
    case 'withdrawn':
      return m.t('answer.title.withdrawn');
    case 'expired':
      return view.decided ? m.t('answer.title.decided') : m.t('answer.title.linkClosed');
    case 'lapsed':
      return m.t('answer.title.lapsed', { title: isolateText(view.title) });
    case 'ask':
      return isolateText(view.title);
    case 'not_found':
      return m.t('answer.title.notFound');
    case 'refused':
      return m.t('answer.title.refused');
    case 'too_large':
      return m.t('answer.title.tooLarge');
    case 'unavailable':
      return m.t('answer.title.unavailable');
    case 'someone_else':
      return m.t('answer.title.someoneElse');
    case 'no_passkey':
      return m.t('answer.title.noPasskey');
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
  const m = useMessages();
  const script =
    view.state === 'answered' || view.state === 'open'
      ? FOLLOW_SCRIPT
      : view.state === 'passkey_confirm'
        ? PASSKEY_CONFIRM_SCRIPT
        : undefined;
  return (
    <Page title={m.t('answer.documentTitle', { title: documentTitle(view, m) })} nonce={nonce} script={script}>
      <AnswerBody view={view} />
    </Page>
  );
}

/** The answer page as an HTML document string (with its doctype), ready to send; in `messages`' language when given. */
export function renderAnswerPage(view: AnswerPageView, nonce: string, messages?: Messages): string {
  const render = () => toDocument(<AnswerPage view={view} nonce={nonce} />);
  return messages ? inLanguage(messages, render) : render();
}
