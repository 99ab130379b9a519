import { AnswerBody } from '../answer/answer-page.tsx';
import { PhoneHandoff } from '../answer/phone-handoff.tsx';
import type { AnswerPageView, ChatFrame, OpenPageView } from '../answer/view.ts';
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
}

/**
 * The Surface the answer page shows for `view`, drawn for the chat view: the same components from
 * the same view model (so the two cannot disagree), without the page's CSRF token or form action,
 * links absolute on the links' origin for the host to open. The view's script puts it in place.
 */
export function renderChatFragment(view: AnswerPageView, options: ChatFragmentOptions): string {
  const chat: ChatFrame = { origin: new URL(options.origin).origin, link: options.link ?? linkOf(view) };
  if (view.state === 'open' && options.inline === false) return toFragment(<LinkOnly view={view} link={chat.link} />);
  return toFragment(<AnswerBody view={view} chat={chat} />);
}

function linkOf(view: AnswerPageView): string | undefined {
  return view.state === 'open' || view.state === 'ask' ? view.link : undefined;
}

/** An open form the agent asked to be answered on its page only: its title, and the way there. */
function LinkOnly({ view, link }: { view: OpenPageView; link: string | undefined }) {
  const title = view.surface.title;
  return (
    <>
      {link ? <PhoneHandoff link={link} inChat /> : null}
      <div class="card">
        <h1 dir={textDir(title)}>{title}</h1>
        <p>This form is answered on its own page, not in the chat: open it with “Answer on my phone”, on your phone or here.</p>
      </div>
    </>
  );
}
