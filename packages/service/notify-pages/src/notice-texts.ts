import type { AskProgress, NoticeFacts, NoticeLanguage, NoticeTexts, NotificationKind } from '@sess/notify';
import { chooseLanguage, type Messages, messagesFor } from '@sess/web';

/*
 * Sess's words in a push notification and an e-mail, from @sess/web's catalogs. They live here,
 * not in @sess/notify: notify (the outbox and its worker) stays below the pages and may not
 * import @sess/web; this package may import both, and apps/server hands `noticeTexts` to the
 * worker (`startNotificationWorker({ texts })`).
 */

/**
 * The language of a notice: the recipient's saved language (`language.saved`) when Sess ships
 * it, else the form's (`language.content`, its `surface.locale`), else English. No browser is
 * asking, so there is no `Accept-Language` to fall back on.
 */
export function noticeLanguage(language: NoticeLanguage): string {
  return chooseLanguage({ saved: language.saved, content: language.content });
}

/** The line of why for `kind`; the Ask kinds tell the counts as they are when it is sent. */
function bodyOf(m: Messages, kind: NotificationKind, ask: AskProgress | null): string {
  switch (kind) {
    case 'form':
      return m.t('notify.message.form');
    case 'follow_up':
      return m.t('notify.message.followUp');
    case 'reminder':
      return m.t('notify.message.reminder');
    case 'ask_answer':
      return m.t('notify.message.askAnswer', { answered: ask?.answered ?? 0, max: ask?.max ?? 0 });
    case 'ask_closed': {
      const count = ask?.answered ?? 0;
      if (ask?.decision === 'approved') return m.t('notify.message.askApproved', { count });
      if (ask?.decision === 'rejected') return m.t('notify.message.askRejected', { count });
      return m.t('notify.message.askClosed', { count });
    }
  }
}

/** When the link lapses, in the recipient's zone (named) when known, else in UTC (named). */
function until(m: Messages, at: Date, zone: string | undefined): string {
  const date = m.dateTime(at, 'long');
  return m.t('notify.mail.until', { date: zone ? m.t('notify.mail.inZone', { time: date, zone }) : date });
}

/**
 * A notice's words: the line of why (push and e-mail) and the e-mail's plain text (why, the
 * title and the whole link on a line of its own, until when the link works, and why Sess sent it).
 */
export const noticeTexts: NoticeTexts = (facts: NoticeFacts) => {
  const tag = noticeLanguage(facts.language);
  const zone = validZone(facts.timeZone);
  const m = messagesFor(tag, { timeZone: zone });
  const body = bodyOf(m, facts.kind, facts.ask);
  const lapses = facts.kind === 'form' || facts.kind === 'follow_up' || facts.kind === 'reminder';
  const mailText = [
    body,
    '',
    facts.title,
    facts.url,
    '',
    ...(lapses ? [until(m, facts.expiresAt, m.timeZone), ''] : []),
    m.t('notify.mail.why'),
    '',
  ].join('\n');
  return { lang: m.tag, body, mailText };
};

function validZone(zone: string | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
