import type { InteractionEvent } from '@sess/contract';

/*
 * An interaction_events row as the wire names it (@sess/contract's InteractionEventSchema).
 * A stand-in for @sess/events' toEventView until it lands; the merger keeps one of the two.
 */

/** The columns of a row, as a raw statement returns them (snake case; timestamps as text or Date). */
export interface EventColumns {
  id: string;
  workspace_id: string;
  seq: number | string | null;
  session_id: string;
  kind: InteractionEvent['kind'];
  type: InteractionEvent['type'];
  at: string | Date;
  revision: number | null;
  respondent: string | null;
  channel: InteractionEvent['channel'];
  response_event_id: string | null;
  assurance: InteractionEvent['assurance'];
  prev_hash: string | null;
  hash: string | null;
}

export const toDate = (value: string | Date): Date => (value instanceof Date ? value : new Date(value));

export function eventViewOf(row: EventColumns): InteractionEvent {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    seq: row.seq === null ? null : Number(row.seq),
    sessionId: row.session_id,
    kind: row.kind,
    type: row.type,
    at: toDate(row.at).toISOString(),
    revision: row.revision === null ? null : Number(row.revision),
    respondentId: row.respondent,
    channel: row.channel,
    responseEventId: row.response_event_id,
    assurance: row.assurance,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
