import type { InteractionEvent } from '@sess/contract';
import type { Messages } from '@sess/web';

/**
 * An event in the person's words on their timeline page (the agent's status line keeps
 * @sess/events' English `describeEvent`): what happened, never to whom beyond "a respondent".
 */
export function eventLabel(m: Messages, event: InteractionEvent): string {
  const revision = event.kind === 'ask' ? 0 : (event.revision ?? 0);
  switch (event.type) {
    case 'created':
      return m.t('account.timeline.event.created', { kind: event.kind });
    case 'notified':
      return m.t('account.timeline.event.notified', { channel: event.channel ?? 'push' });
    case 'opened':
      return m.t('account.timeline.event.opened');
    case 'started':
      return m.t('account.timeline.event.started');
    case 'answered':
      return m.t('account.timeline.event.answered', { kind: event.kind, revision, assurance: event.assurance ?? 'none' });
    case 'published':
      return m.t('account.timeline.event.published', { revision });
    case 'extended':
      return m.t('account.timeline.event.extended');
    case 'lapsed':
      return m.t('account.timeline.event.lapsed');
    case 'completed':
      return m.t('account.timeline.event.completed');
    case 'withdrawn':
      return m.t('account.timeline.event.withdrawn');
    case 'expired':
      return m.t('account.timeline.event.expired');
    case 'closed':
      return m.t('account.timeline.event.closed');
  }
}
