import { SessError } from '@sess/core';
import { classifyToken, type FormsRuntime, type LinkView, linkUrl, openLink } from '@sess/forms';
import { type AnswerPageView, CHAT_VIEW_DOCUMENT, CHAT_VIEW_VERSION, renderChatFragment } from '@sess/web';
import { answerLink } from '../answer-link.ts';
import { createPageCsrf } from '../page-csrf.ts';
import { isControlName } from '../read-posted-form.ts';
import { type PageViewOptions, toPageView } from '../to-page-view.ts';

/*
 * The form inside the agent's chat, for @sess/mcp's edge (its `ChatViews`): the answer page's
 * own view model (`toPageView` of the link's view) rendered as a fragment by @sess/web's chat
 * renderer, and answers through `answerLink`, the page's own rule, the way `chat`. The edge has
 * already checked the view's token and loaded the handle with the caller's whole binding; this
 * side renders and answers for that handle's link only.
 */

type ChatViewState = 'open' | 'answered' | 'completed' | 'withdrawn' | 'expired' | 'lapsed' | 'ask';

/** The form of a handle, as the edge hands it over (structurally @sess/mcp's ChatViewTarget). */
export interface ChatTarget {
  handle: string;
  kind: 'interaction' | 'ask';
  humanUrl?: string | undefined;
  handleState: string;
  title: string;
}

export interface ChatRender {
  state: ChatViewState;
  revision: number;
  html: string;
  answerable: boolean;
  changing: boolean;
}

export interface ChatViewsDeps {
  runtime: FormsRuntime;
  /** The server secret (the page's CSRF key is derived from it; the chat's form carries no CSRF token of use). */
  secret: string;
}

const CHANGING: ReadonlySet<ChatViewState> = new Set(['open', 'answered', 'lapsed', 'ask']);

/** The link's token, when `humanUrl` is a link of this server (`<links origin>/s/<token>`). */
function tokenOf(runtime: FormsRuntime, humanUrl: string | undefined): string | undefined {
  if (!humanUrl) return undefined;
  const prefix = linkUrl(runtime.linkUrl, '');
  if (!humanUrl.startsWith(prefix)) return undefined;
  const token = humanUrl.slice(prefix.length);
  // A handle keeps its form's own link (an interaction's or an Ask's), never a respondent's page.
  return classifyToken(token) === 'link' ? token : undefined;
}

/** A finished handle's view: its link is forgotten, so its state and title are all there is to show. */
function finishedPage(target: ChatTarget): AnswerPageView {
  const state = target.handleState === 'completed' ? 'completed' : target.handleState === 'cancelled' ? 'withdrawn' : 'expired';
  return { state, title: target.title };
}

/** The person's values as the page reads a post: the page's own control names are not answers. */
function personValues(values: Record<string, string | string[]>): Record<string, string | string[]> {
  const own: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of Object.entries(values)) if (!isControlName(name)) own[name] = value;
  return own;
}

export function createChatViews(deps: ChatViewsDeps) {
  const { runtime } = deps;
  const csrf = createPageCsrf(deps.secret);

  /** The page view of `view`, as the page makes it (in the chat an Ask's Start becomes its link: @sess/web). */
  function pageViewOf(view: LinkView, token: string, options: Omit<PageViewOptions, 'link'> = {}): AnswerPageView {
    return toPageView(view, token, csrf, runtime.now(), { ...options, link: linkUrl(runtime.linkUrl, token) });
  }

  function render(page: AnswerPageView, view: LinkView | undefined, token: string | undefined, revision: number): ChatRender {
    // A passkey form is confirmed on its page (the chat cannot run the ceremony): here, its link only.
    const inline = view?.kind === 'interaction' && view.answerInChat && view.assurance !== 'passkey';
    const state = page.state as ChatViewState;
    return {
      state,
      revision: view?.revision ?? revision,
      html: renderChatFragment(page, {
        origin: runtime.linkUrl,
        link: token ? linkUrl(runtime.linkUrl, token) : undefined,
        inline,
        // Sess's words in the form's language, in every state (not only where the view has its Surface).
        locale: view?.surface.locale,
      }),
      answerable: state === 'open' && inline,
      changing: CHANGING.has(state),
    };
  }

  async function current(
    target: ChatTarget,
    token: string | undefined,
    options?: Omit<PageViewOptions, 'link'>,
  ): Promise<ChatRender> {
    if (!token) return render(finishedPage(target), undefined, undefined, 1);
    const view = await openLink(runtime, token);
    return render(pageViewOf(view, token, options), view, token, view.revision);
  }

  return {
    document: { html: CHAT_VIEW_DOCUMENT, version: CHAT_VIEW_VERSION },
    linkOrigin: new URL(runtime.linkUrl).origin,
    render: (_ctx: { principalId: string }, target: ChatTarget) => current(target, tokenOf(runtime, target.humanUrl)),
    async answer(
      ctx: { principalId: string },
      target: ChatTarget,
      input: { revision: number; actionId?: string | undefined; values: Record<string, string | string[]> },
    ): Promise<{ view: ChatRender; refused?: SessError | undefined }> {
      const token = tokenOf(runtime, target.humanUrl);
      if (!token || target.kind !== 'interaction') {
        const refused = new SessError('INVALID_STATE', 'This form is not answered in the chat: open its link to see it.', {});
        return { view: await current(target, token), refused };
      }
      const submitted = personValues(input.values);
      const outcome = await answerLink(
        runtime,
        token,
        { revision: input.revision, actionId: input.actionId, submitted },
        {
          via: 'chat',
          principalId: ctx.principalId,
        },
      );
      switch (outcome.kind) {
        case 'accepted':
          return { view: await current(target, token) };
        case 'invalid': {
          const shown = pageViewOf(outcome.view, token);
          const page = shown.state === 'open' ? { ...shown, posted: submitted, errors: outcome.errors } : shown;
          return { view: render(page, outcome.view, token, outcome.view.revision), refused: outcome.refused };
        }
        case 'current':
          return { view: await current(target, token, outcome.options), refused: outcome.refused };
      }
    },
  };
}
