import { AnswerBody } from '../answer/answer-page.tsx';
import { PhoneHandoff } from '../answer/phone-handoff.tsx';
import type { AnswerPageView, ChatFrame, OpenPageView } from '../answer/view.ts';
import { shippedLanguageFor } from '../i18n/choose-language.ts';
import { messagesFor } from '../i18n/messages.ts';
import { inLanguage, useMessages } from '../i18n/render-scope.ts';
import { textDir } from '../isolate.tsx';
import { toFragment } from '../render-document.ts';

export interface ChatFragmentOptions {
  /** The person's absolute link (the answer page), for "Answer on my phone" and its QR code. */
  readonly link?: string | undefined;
  /** The links' origin: the receipt and other pages of the link open there. */
  readonly origin: string;
  /**
   * False when the form may not be answered in the chat (`answer_in_chat: false`): an open form
   * then shows its title and the way to its page, never its fields. Default true.
   */
  readonly inline?: boolean | undefined;
  /**
   * The form's `surface.locale` (BCP 47), for a view that has no Surface of its own (answered,
   * closed); an open form's own `surface.locale` is read from the view.
   */
  readonly locale?: string | undefined;
}

/**
 * The Surface the answer page shows for `view`, drawn for the chat view: the same components from
 * the same view model (so the two cannot disagree), without the page's CSRF token or form action,
 * links absolute on the links' origin for the host to open. The view's script puts it in place.
 */
export function renderChatFragment(view: AnswerPageView, options: ChatFragmentOptions): string {
  const chat: ChatFrame = { origin: new URL(options.origin).origin, link: options.link ?? linkOf(view) };
  // Sess's words in the form's language when Sess ships it, else English (the host's language is
  // known only to the view's script, which says its own sentences in it).
  const formLanguage = shippedLanguageFor(options.locale ?? ('surface' in view ? view.surface.locale : undefined));
  const body =
    view.state === 'open' && options.inline === false ? (
      <LinkOnly view={view} link={chat.link} />
    ) : (
      <AnswerBody view={view} chat={chat} />
    );
  return inLanguage(messagesFor(formLanguage), () => toFragment(<Frame formLanguage={formLanguage}>{body}</Frame>));
}

/**
 * The fragment's one element: its language for its content (`lang`, `dir`), and the form's
 * language for the view's script (`data-form-lang`, only when Sess ships the form's language).
 */
function Frame({ formLanguage, children }: { formLanguage: string | undefined; children: unknown }) {
  const m = useMessages();
  return (
    <div class="chat-frame" lang={m.tag} dir={m.dir} data-form-lang={formLanguage}>
      {children}
    </div>
  );
}

function linkOf(view: AnswerPageView): string | undefined {
  return view.state === 'open' || view.state === 'ask' ? view.link : undefined;
}

/** An open form the agent asked to be answered on its page only: its title, and the way there. */
function LinkOnly({ view, link }: { view: OpenPageView; link: string | undefined }) {
  const m = useMessages();
  const title = view.surface.title;
  return (
    <>
      {link ? <PhoneHandoff link={link} inChat /> : null}
      <div class="card">
        <h1 dir={textDir(title)}>{title}</h1>
        <p>{m.t('chat.linkOnly')}</p>
      </div>
    </>
  );
}
