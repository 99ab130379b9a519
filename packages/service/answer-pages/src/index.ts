/*
 * @sess/answer-pages: the person's pages behind a link (`/s/*`), thin adapters over @sess/forms'
 * link verbs, rendered by @sess/web. See README.md.
 */

export { type ChatRender, type ChatTarget, type ChatViewsDeps, createChatViews } from './chat/create-chat-views.ts';
export {
  createPageRoutes,
  PAGE_BODY_LIMIT_BYTES,
  PAGE_WAIT_MS,
  type PageAccounts,
  type PagePasskeys,
  type PageRoutesDeps,
  RESPONDENT_COOKIE,
} from './create-page-routes.ts';
