// The public surface of @sess/notify: Web Push and e-mail for the person an agent asks.
export {
  type AskNotice,
  enqueueAskAnswer,
  enqueueAskWatch,
  enqueueFormNotice,
  type FormNotice,
  type NoticePayload,
  type NoticeRecipient,
  reminderAt,
} from './enqueue.ts';
export { createNotifySealers, type NotifySealers } from './sealers.ts';
export {
  ASK_UPDATES,
  type AskUpdates,
  afterQuietHours,
  checkSettings,
  DEFAULT_SETTINGS,
  isTimeZone,
  type NotificationSettings,
  readSettings,
  saveSettings,
} from './settings.ts';
export {
  DEVICE_NAME_MAX,
  type DeliveryTarget,
  type DeviceSummary,
  forgetDevice,
  listDevices,
  MAX_DEVICES_PER_PERSON,
  markDelivered,
  markFailed,
  type PushTarget,
  parseDeviceName,
  parsePushTarget,
  readDeliveryTargets,
  removeDevice,
  saveDevice,
} from './subscriptions.ts';
export { topicOf } from './topic.ts';
export { loadVapidKeys, type VapidKeyPair } from './vapid.ts';
