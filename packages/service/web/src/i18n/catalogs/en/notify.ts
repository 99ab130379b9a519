/**
 * The notifications area's messages (ICU message syntax): the notifications page
 * (`/account/notifications`) and its script, and what a push notification or e-mail says.
 */
export const notify = {
  // What a notification says under the form's title (push and e-mail).
  'notify.message.form': 'Your agent is asking you something.',
  'notify.message.followUp': 'Your agent has an update on this.',
  'notify.message.reminder': 'Still waiting for your answer; the link lapses soon.',
  'notify.message.askAnswer': '{answered, number} of {max, number} answered.',
  'notify.message.askClosed': '{count, plural, one {Closed with # answer.} other {Closed with # answers.}}',
  'notify.message.askApproved':
    '{count, plural, one {Decided: approved, with # answer.} other {Decided: approved, with # answers.}}',
  'notify.message.askRejected':
    '{count, plural, one {Decided: rejected, with # answer.} other {Decided: rejected, with # answers.}}',
  // The e-mail's own lines.
  'notify.mail.until': 'The link works until {date}.',
  'notify.mail.inZone': '{time} ({zone})',
  'notify.mail.why':
    'Sess sends this because e-mail notifications are on for your account; you can turn them off on your account page.',

  // The page.
  'notify.page.title': 'Notifications · Sess',
  'notify.page.heading': 'Notifications',
  'notify.page.lead':
    'When an agent asks you something, Sess can send the question to your phone, so you do not have to carry the link there yourself. Only you are notified.',
  'notify.page.back': 'Back to your account',
  'notify.status.added': 'This device is added: Sess will notify it.',
  'notify.status.removed': 'Device removed. It gets no more notifications.',
  'notify.status.saved': 'Settings saved.',

  'notify.device.heading': 'This device',
  'notify.device.nameLabel': 'Device name',
  'notify.device.nameHint': 'How this device is listed below. You can change it.',
  'notify.device.button': 'Notify this device',
  'notify.device.iosTitle': 'On an iPhone or iPad, add Sess to your Home Screen first.',
  'notify.device.iosShare': 'Tap Share (the square with the arrow), then Add to Home Screen.',
  'notify.device.iosOpen': 'Open Sess from your Home Screen.',
  'notify.device.iosTap': 'Tap “Notify this device” there.',
  'notify.device.iosVersion': 'Web Push needs iOS 16.4 or later.',
  'notify.device.insecure':
    'Browsers take push notifications only on a page served over HTTPS (or localhost on this same computer). Open Sess at its https:// address to add this device, or rely on e-mail.',
  'notify.device.unsupported': 'This browser cannot take push notifications. Try another browser, or rely on e-mail.',
  'notify.device.denied':
    'Notifications are blocked for this site in this browser. Allow them in the browser’s site settings, then reload this page.',
  'notify.device.noScript': 'Adding a device needs JavaScript.',

  'notify.devices.heading': 'Your devices',
  'notify.devices.none': 'No devices yet.',
  'notify.devices.added': 'Added {date}',
  'notify.devices.lastDelivery': 'Last delivery: {date}',
  'notify.devices.noDelivery': 'No delivery yet',
  'notify.devices.lastFailure': 'Last failure: {date}',
  'notify.devices.remove': 'Remove',
  'notify.devices.removeLabel': 'Remove {name}',

  'notify.settings.heading': 'Settings',
  'notify.settings.channels': 'Channels',
  'notify.settings.push': 'Push notifications to my devices',
  'notify.settings.email': 'E-mail',
  'notify.settings.emailHint': 'The link by e-mail when no device of yours takes a push.',
  'notify.settings.emailMissing':
    'E-mail needs the server’s SMTP settings (SMTP_URL and a from address); this server has none yet, so no e-mail is sent.',
  'notify.settings.quiet': 'Quiet hours',
  'notify.settings.quietCheck': 'Hold notifications during quiet hours',
  'notify.settings.quietHint': 'They are sent when the quiet hours end, if the link is still open.',
  'notify.settings.from': 'From',
  'notify.settings.to': 'To',
  'notify.settings.timeZone': 'Time zone',
  'notify.settings.timeZoneHint': 'Such as Europe/Ljubljana or UTC.',
  'notify.settings.reminders': 'Reminders',
  'notify.settings.remindersCheck': 'Remind me shortly before an unanswered link runs out',
  'notify.settings.ask': 'Ask updates',
  'notify.settings.askHint': 'When an Ask your agent shared with others gets answers, tell me:',
  'notify.settings.askEach': 'On each answer',
  'notify.settings.askClosed': 'When it closes',
  'notify.settings.askOff': 'Off',
  'notify.settings.apiKeys': 'API keys',
  'notify.settings.apiKeyCheck': 'Also notify me for forms created with this workspace’s API keys',
  'notify.settings.apiKeyHint': 'For workspaces you own. Forms your connected apps create for you always notify you.',
  'notify.settings.save': 'Save settings',

  // Problems the page or its routes name.
  'notify.error.quietStart': 'Quiet hours need a start time, such as 22:00.',
  'notify.error.quietEnd': 'Quiet hours need an end time, such as 07:00.',
  'notify.error.quietSame': 'Quiet hours must start and end at different times.',
  'notify.error.timeZone': 'The time zone must be one such as Europe/Ljubljana or UTC.',
  'notify.error.askUpdates': 'Choose when Ask updates should reach you.',
  'notify.error.expiredTitle': 'Nothing was changed',
  'notify.error.expired': 'This page had expired (or the request did not come from it). Reload it and try again.',
  'notify.error.noDeviceTitle': 'No such device',
  'notify.error.noDevice': 'This device is not on your list (it may already be removed).',
  'notify.error.backToPage': 'Back to notifications',
  'notify.error.signIn': 'Sign in to Sess first.',
  'notify.error.subscription':
    'This browser’s push subscription could not be used, so this device was not added. Try another browser.',
  'notify.error.deviceName': 'The device name is too long or holds characters Sess does not take. Shorten it and try again.',
  'notify.error.tooManyDevices':
    '{max, plural, one {You have # device, the most Sess keeps.} other {You have # devices, the most Sess keeps.}} Remove one you no longer use, then try again.',

  // The page's script (sentences it shows in its status line, and the suggested device name).
  'notify.script.deviceName': '{browser} on {system}',
  'notify.script.thisDevice': 'this device',
  'notify.script.browser': 'Browser',
  'notify.script.notAllowed': 'Notifications were not allowed, so this device was not added.',
  'notify.script.adding': 'Adding this device…',
  'notify.script.silent':
    'Your browser’s push service did not answer within {seconds, number} seconds, so this device was not added. Check that this device is online (a VPN, firewall or content blocker can keep the push service out of reach), then tap “Notify this device” again.',
  'notify.script.subscribeFailed':
    'This browser could not subscribe to push messages just now. Try again, or try another browser.',
  'notify.script.late':
    'Sess did not answer in time, so this device may not be added. Reload the page to see, and try again if it is not listed.',
  'notify.script.unreachable': 'Sess could not be reached, so this device was not added. Check your connection and try again.',
  'notify.script.refused': 'Sess could not add this device. Reload the page and try again.',
  'notify.script.failed': 'Something went wrong while adding this device. Reload the page and try again.',
  'notify.error.endpointNotPublic':
    'This browser’s push service is not at a public address Sess may send to, so this device was not added. Try another browser.',
} as const;
