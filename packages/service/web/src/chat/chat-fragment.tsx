import { AnswerBody } from '../answer/answer-page.tsx';
import type { AnswerPageView, ChatFrame } from '../answer/view.ts';
import { toFragment } from '../render-document.ts';

export interface ChatFragmentOptions {
  /** The person's absolute link (the answer page), for "Answer on my phone" and its QR code. */
  readonly link?: string | undefined;
  /** The links' origin: the receipt and other pages of the link open there. */
  readonly origin: string;
}

/**
 * The Surface the answer page shows for `view`, drawn for the chat view: the same components from
 * the same view model (so the two cannot disagree), without the page's CSRF token or form action,
 * links absolute on the links' origin for the host to open. The view's script puts it in place.
 */
export function renderChatFragment(view: AnswerPageView, options: ChatFragmentOptions): string {
  const chat: ChatFrame = { origin: new URL(options.origin).origin, link: options.link ?? linkOf(view) };
  return toFragment(<AnswerBody view={view} chat={chat} />);
}

function linkOf(view: AnswerPageView): string | undefined {
  return view.state === 'open' || view.state === 'ask' ? view.link : undefined;
}
