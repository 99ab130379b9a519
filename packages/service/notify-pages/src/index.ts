// The public surface of @sess/notify-pages: the notification pages and the installable web app's files.
export type { NotifyPagesEnv } from './env.ts';
export { noticeLanguage, noticeTexts } from './notice-texts.ts';
export {
  createNotificationRoutes,
  DEVICE_BODY_LIMIT_BYTES,
  type NotificationRoutesDeps,
  RENEWALS_PER_MINUTE,
} from './notification-routes.ts';
