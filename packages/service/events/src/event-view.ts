import type { InteractionEvent } from '@sess/contract';

/** The columns of interaction_events a view is made from, as the queries of this package select them. */
export const EVENT_COLUMNS = `e.pos, e.id, e.workspace_id, e.seq, e.session_id, e.kind, e.type, e.at, e.revision, e.respondent,
  e.channel, e.response_event_id, e.assurance, e.prev_hash, e.hash`;

export type EventRow = {
  pos: number | string;
  id: string;
  workspace_id: string;
  seq: number | string | null;
  session_id: string;
  kind: string;
  type: string;
  at: Date | string;
  revision: number | null;
  respondent: string | null;
  channel: string | null;
  response_event_id: string | null;
  assurance: string | null;
  prev_hash: string | null;
  hash: string | null;
};

/**
 * An event as /v1, the export and the webhooks write it. Every field is always present (null when
 * it does not apply), so the chain hash, computed over this object, is the same wherever it is made.
 */
export function toEventView(row: EventRow): InteractionEvent {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    seq: row.seq === null ? null : Number(row.seq),
    sessionId: row.session_id,
    kind: row.kind as InteractionEvent['kind'],
    type: row.type as InteractionEvent['type'],
    at: new Date(row.at).toISOString(),
    revision: row.revision,
    respondentId: row.respondent,
    channel: row.channel as InteractionEvent['channel'],
    responseEventId: row.response_event_id,
    assurance: row.assurance as InteractionEvent['assurance'],
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
