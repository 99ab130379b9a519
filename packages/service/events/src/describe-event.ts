import type { InteractionEvent } from '@sess/contract';

const ASSURANCE_WORDS = { link: 'with the link', account: 'signed in', passkey: 'signed in, with a passkey' } as const;

/**
 * An event in words, for a person's timeline and a task's status line: what happened, never to
 * whom beyond "a respondent" (an event names nobody).
 */
export function describeEvent(event: InteractionEvent): string {
  const revision = event.revision !== null && event.revision > 1 ? ` (revision ${event.revision})` : '';
  switch (event.type) {
    case 'created':
      return event.kind === 'ask' ? 'Ask created' : 'Created';
    case 'notified':
      return event.channel === 'email' ? 'Notified by e-mail' : 'Notified on a device';
    case 'opened':
      return 'Opened in a browser';
    case 'started':
      return 'A respondent started';
    case 'answered': {
      const how = event.assurance ? `, ${ASSURANCE_WORDS[event.assurance]}` : '';
      return event.kind === 'ask' ? `A respondent answered${how}` : `Answered${revision}${how}`;
    }
    case 'published':
      return `Follow-up shown${revision}`;
    case 'extended':
      return 'More time asked for and given';
    case 'lapsed':
      return 'Deadline passed (more time may still be asked for)';
    case 'completed':
      return 'Completed by the agent';
    case 'withdrawn':
      return 'Withdrawn';
    case 'expired':
      return 'Expired unanswered';
    case 'closed':
      return 'Closed';
  }
}
