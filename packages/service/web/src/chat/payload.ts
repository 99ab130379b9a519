/*
 * The contract between the MCP server and the chat view: what a tool result carries in its
 * `_meta` for the view, and the two app-only tools the view calls. The server fills the payload;
 * the view (chat-script.ts) reads nothing else.
 */

/** The MIME type of an MCP App's UI resource (`io.modelcontextprotocol/ui`). */
export const CHAT_VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** The key of a CallToolResult's `_meta` that holds the view's payload. */
export const CHAT_VIEW_META_KEY = 'si.sess/view';

/** The app-only tools the view calls through the host (`tools/call`). */
export const CHAT_VIEW_TOOLS = { answer: 'sess_view_answer', status: 'sess_view_status' } as const;

/** The states the view shows: the answer page's own, and `ask` for an Ask's shared link. */
export type ChatViewState = 'open' | 'answered' | 'completed' | 'withdrawn' | 'expired' | 'lapsed' | 'ask';

/** What a tool result carries at `_meta['si.sess/view']` for the view. */
export interface ChatViewPayload {
  readonly v: 1;
  readonly handle: string;
  readonly revision: number;
  readonly state: ChatViewState;
  /** The Surface as `renderChatFragment` draws it. */
  readonly html: string;
  /** The per-render token, only while the form can be answered or followed. */
  readonly token?: string | undefined;
  /** The person's absolute link (the answer page). */
  readonly link?: string | undefined;
  /** Whether the view should ask `sess_view_status` for news. */
  readonly poll: boolean;
  /**
   * Sent to the chat as the person (`ui/message`) once the answer is in. The view sends it only
   * for an answer it saw arrive (its own, or one that came while it showed the form open), once
   * per handle and revision; the server should still set it only while the answer is fresh.
   */
  readonly message?: string | undefined;
}

/** The arguments the view sends to `sess_view_answer`: the form as a browser posts it. */
export interface ChatViewAnswerArguments {
  readonly handle: string;
  readonly revision: number;
  readonly token: string;
  readonly action_id: string;
  readonly values: Readonly<Record<string, string | readonly string[]>>;
}

/** The arguments the view sends to `sess_view_status`. */
export interface ChatViewStatusArguments {
  readonly handle: string;
  readonly revision: number;
  readonly token: string;
}
