import type { ChatViewState } from '@sess/contract';
import type { SessError } from '@sess/core';
import type { BackendContext, HandleRecord } from '@sess/interactions';

/*
 * What a host that runs the form inside the chat provides: the UI resource's document and the
 * form's view, rendered by the same code and from the same view model as the answer page (the
 * hosted server: @sess/answer-pages over the runtime), and the answer taken through the same
 * admission as the page. The edge decides who may see and use it (the UI extension, the view's
 * token, the handle's binding); the host only renders and answers for a handle the edge loaded.
 */

/** The form the view shows: a handle the caller holds, with its link while it keeps one. */
export interface ChatViewTarget {
  handle: string;
  kind: HandleRecord['kind'];
  /** The private link; absent once the handle is finished (the link is forgotten then). */
  humanUrl?: string | undefined;
  /** The handle's state and title, for a view without its link. */
  handleState: HandleRecord['state'];
  title: string;
}

/** A view as the host rendered it. */
export interface RenderedChatView {
  state: ChatViewState;
  revision: number;
  /** The form or status, as the answer page renders it. */
  html: string;
  /** Whether the person can answer in the chat now (an open interaction whose form allows it). */
  answerable: boolean;
  /** Whether the form can still change (an answer, a next step, a close), so the view keeps reading its status. */
  changing: boolean;
}

/** The outcome of an answer from the chat: the view to show, and why it was refused (nothing changed) if it was. */
export interface ChatAnswerOutcome {
  view: RenderedChatView;
  refused?: SessError | undefined;
}

export interface ChatViews {
  /** The UI resource: one self-contained HTML document, and its version (part of its `ui://` URI). */
  readonly document: { html: string; version: string };
  /** The links' origin: where "Answer on my phone" and the receipt take the person (declared to hosts). */
  readonly linkOrigin: string;
  /** Renders what the form shows now. */
  render(ctx: BackendContext, target: ChatViewTarget): Promise<RenderedChatView>;
  /** Takes the person's answer from the chat (the way `chat`, for `ctx.principalId`) and renders the outcome. */
  answer(
    ctx: BackendContext,
    target: ChatViewTarget,
    input: { revision: number; actionId?: string | undefined; values: Record<string, string | string[]> },
  ): Promise<ChatAnswerOutcome>;
}
