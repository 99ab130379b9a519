// The public surface of @sess/notify: Web Push and e-mail for the person an agent asks.
export { API_KEY_NOTICES_TTL_MS, type ApiKeyNotices, createApiKeyNotices } from './api-key-notices.ts';
export { DELIVERY_GATE_DEFAULTS } from './delivery-gate.ts';
export {
  type AskNotice,
  enqueueAskAnswer,
  enqueueAskWatch,
  enqueueFormNotice,
  FORM_NOTICE_COMPANION,
  type FormNotice,
  formNoticeRow,
  type NoticePayload,
  type NoticeRecipient,
  OUTBOX_CHANNEL,
  type PeopleRecipient,
  reminderAt,
  workspaceOwnersWantApiKeyForms,
} from './enqueue.ts';
export {
  classifyMailError,
  createMailSender,
  type MailConfig,
  type MailOutcome,
  type MailResult,
  type MailSender,
} from './mail-sender.ts';
export {
  type AskProgress,
  composeMessage,
  type DevicePayload,
  devicePayload,
  MAX_PUSH_PAYLOAD_BYTES,
  type NoticeFacts,
  type NoticeLanguage,
  type NoticeTexts,
  type NoticeWords,
  type NotificationKind,
  type NotificationMessage,
} from './message.ts';
export { type OutboxBacklog, readOutboxBacklog } from './outbox-backlog.ts';
export { createPeopleNotices, type PeopleNotices } from './people-notices.ts';
export {
  classifyPushStatus,
  type PushOptions,
  type PushOutcome,
  type PushResult,
  sendPush,
  type VapidIdentity,
} from './push-sender.ts';
export {
  createReachCache,
  REACH_CACHE_TTL_MS,
  REACH_CHANNEL,
  type Reach,
  type ReachCache,
  readReach,
} from './reach.ts';
export { createNotifySealers, type NotifySealers } from './sealers.ts';
export {
  ASK_UPDATES,
  type AskUpdates,
  afterQuietHours,
  checkSettings,
  DEFAULT_SETTINGS,
  isTimeZone,
  type NotificationSettings,
  readSavedSettings,
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
  markFailed,
  type PushTarget,
  parseDeviceName,
  parsePushTarget,
  parseRenewalProof,
  type RenewalProof,
  readDeliveryTargets,
  removeDevice,
  renewDevice,
  saveDevice,
} from './subscriptions.ts';
export { topicOf } from './topic.ts';
export { loadVapidKeys, type VapidKeyPair } from './vapid.ts';
export {
  backoffMs,
  checkVapidSubject,
  MAX_ATTEMPTS,
  type NotificationWorker,
  type NotificationWorkerOptions,
  startNotificationWorker,
} from './worker.ts';
