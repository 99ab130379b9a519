import { sha256CanonicalJson } from './canonical-json.ts';

/*
 * The hash chain of a workspace's interaction events. Each event, as exported (one JSON object
 * per line), carries `seq` (1, 2, 3, … within its workspace), `prevHash` (the hash of the event
 * before it; GENESIS_HASH for the first) and `hash`: the SHA-256 of the canonical JSON of every
 * other field of the line. So an edited field, a removed or inserted line, or a line moved from
 * another workspace's chain breaks the chain where it happened. One implementation for the
 * server that seals the chain and every tool that checks it.
 */

/** The `prevHash` of a workspace's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a chained event must have; every other field is hashed as it is. */
export interface ChainedEvent {
  workspaceId: string;
  seq: number;
  prevHash: string;
  hash: string;
  [field: string]: unknown;
}

/** The hash of an event: SHA-256 of the canonical JSON of all its fields but `hash`. */
export function eventHash(event: Omit<ChainedEvent, 'hash'> & { hash?: unknown }): string {
  const { hash: _ignored, ...fields } = event;
  return sha256CanonicalJson(fields);
}

export type ChainBreak =
  | { line: number; problem: 'not_json' | 'not_an_event' }
  | { line: number; problem: 'hash_mismatch' | 'wrong_previous' | 'seq_gap' | 'other_workspace'; seq: number };

export interface ChainCheck {
  ok: boolean;
  /** Events read. */
  events: number;
  /** The first and last `seq` read (null when empty). */
  firstSeq: number | null;
  lastSeq: number | null;
  /** The hash of the last event: compare it with a later export's `prevHash` to join two files. */
  lastHash: string | null;
  /** Where the chain breaks first (absent when `ok`). */
  broken?: ChainBreak;
}

function isChained(value: unknown): value is ChainedEvent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.workspaceId === 'string' &&
    Number.isSafeInteger(v.seq) &&
    typeof v.prevHash === 'string' &&
    typeof v.hash === 'string'
  );
}

/**
 * Checks the lines of an export (JSON Lines; blank lines are skipped). The first event may start
 * anywhere in its chain (an export of a date range); from there each must follow the one before:
 * the next `seq`, its `prevHash` the previous `hash`, the same workspace, and its own hash right.
 * A file that starts at `seq` 1 must start from GENESIS_HASH.
 */
export function verifyEventChain(lines: Iterable<string>): ChainCheck {
  let events = 0;
  let firstSeq: number | null = null;
  let previous: ChainedEvent | null = null;
  let lineNumber = 0;
  const result = (broken?: ChainBreak): ChainCheck => ({
    ok: broken === undefined,
    events,
    firstSeq,
    lastSeq: previous?.seq ?? null,
    lastHash: previous?.hash ?? null,
    ...(broken ? { broken } : {}),
  });
  for (const raw of lines) {
    lineNumber += 1;
    if (raw.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return result({ line: lineNumber, problem: 'not_json' });
    }
    if (!isChained(parsed)) return result({ line: lineNumber, problem: 'not_an_event' });
    const event = parsed;
    const at = { line: lineNumber, seq: event.seq };
    if (eventHash(event) !== event.hash) return result({ ...at, problem: 'hash_mismatch' });
    if (previous) {
      if (event.workspaceId !== previous.workspaceId) return result({ ...at, problem: 'other_workspace' });
      if (event.seq !== previous.seq + 1) return result({ ...at, problem: 'seq_gap' });
      if (event.prevHash !== previous.hash) return result({ ...at, problem: 'wrong_previous' });
    } else if (event.seq === 1 && event.prevHash !== GENESIS_HASH) {
      return result({ ...at, problem: 'wrong_previous' });
    }
    if (firstSeq === null) firstSeq = event.seq;
    events += 1;
    previous = event;
  }
  return result();
}
