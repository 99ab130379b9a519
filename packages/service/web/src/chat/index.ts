export { CHAT_VIEW_DOCUMENT, CHAT_VIEW_VERSION } from './chat-document.ts';
export { type ChatFragmentOptions, renderChatFragment } from './chat-fragment.tsx';
export { CHAT_VIEW_SCRIPT } from './chat-script.ts';
export {
  CHAT_VIEW_META_KEY,
  CHAT_VIEW_MIME_TYPE,
  CHAT_VIEW_TOOLS,
  type ChatViewAnswerArguments,
  type ChatViewPayload,
  type ChatViewState,
  type ChatViewStatusArguments,
} from './payload.ts';
