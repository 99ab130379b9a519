import type { InteractionEvent } from '@sess/contract';
import { describeEvent } from '@sess/events';
import { messagesFor } from '@sess/web';
import { describe, expect, it } from 'vitest';
import { eventLabel } from './event-label.ts';

const base: InteractionEvent = {
  id: `iev_${'0'.repeat(32)}`,
  workspaceId: `ws_${'a'.repeat(26)}`,
  seq: 1,
  sessionId: `ses_${'a'.repeat(26)}`,
  kind: 'interaction',
  type: 'created',
  at: '2026-12-07T10:00:00.000Z',
  revision: 1,
  respondentId: null,
  channel: null,
  responseEventId: null,
  assurance: null,
  prevHash: null,
  hash: null,
};

const events: InteractionEvent[] = [
  base,
  { ...base, kind: 'ask', revision: null },
  { ...base, type: 'notified', channel: 'email' },
  { ...base, type: 'notified', channel: 'push' },
  { ...base, type: 'opened' },
  { ...base, type: 'started', kind: 'ask', respondentId: 'rsp_1' },
  { ...base, type: 'answered', revision: 2, assurance: 'passkey' },
  { ...base, type: 'answered', revision: 1, assurance: 'link' },
  { ...base, type: 'answered', kind: 'ask', revision: 1, assurance: 'account' },
  { ...base, type: 'answered', revision: 1, assurance: null },
  { ...base, type: 'published', revision: 3 },
  ...(['extended', 'lapsed', 'completed', 'withdrawn', 'expired', 'closed'] as const).map((type) => ({ ...base, type })),
];

describe('a timeline event in the person’s words', () => {
  it('says in English exactly what the agent’s status line says', () => {
    const english = messagesFor('en');
    expect(events.map((event) => eventLabel(english, event))).toEqual(events.map((event) => describeEvent(event)));
  });

  it('says it in German, with the revision and how the answer was given', () => {
    const german = messagesFor('de');
    expect(eventLabel(german, events[6] as InteractionEvent)).toBe('Beantwortet (Version 2), angemeldet, mit Passkey');
    expect(eventLabel(german, events[8] as InteractionEvent)).toBe('Eine befragte Person hat geantwortet, angemeldet');
    expect(eventLabel(german, events[10] as InteractionEvent)).toBe('Nächster Schritt angezeigt (Version 3)');
  });
});
