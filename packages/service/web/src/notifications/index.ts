export { NotificationsPage, renderNotificationsPage } from './notifications-page.tsx';
export { NOTIFY_SCRIPT, NOTIFY_WAIT_MS, PUSH_SERVICE_SILENT } from './notify-script.ts';
export {
  CSRF_HEADER,
  type DeviceView,
  NOTIFY_FORM_FIELDS,
  NOTIFY_PATHS,
  type NotificationsView,
  type SettingsFormView,
} from './view.ts';
