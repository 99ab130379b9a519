import type { Logger } from '@sess/core';
import { sql } from 'drizzle-orm';
import type { DbOrTx, NotifyHandler } from './types.ts';

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_PAYLOAD_BYTES = 7900; // PostgreSQL refuses NOTIFY payloads of 8000 bytes and more.

export function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notify channel "${channel}": use lower-case letters, digits and _.`);
}

export function checkPayload(payload: string): void {
  if (Buffer.byteLength(payload, 'utf8') > MAX_PAYLOAD_BYTES) {
    throw new Error(`Notify payload is over ${MAX_PAYLOAD_BYTES} bytes; send an id and read the rest from the database.`);
  }
}

/**
 * Sends a notification through `db`, or inside a transaction so it is delivered only if and
 * when that transaction commits.
 */
export async function notify(db: DbOrTx, channel: string, payload: string): Promise<void> {
  checkChannel(channel);
  checkPayload(payload);
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** Handlers per channel, and the fan-out that both bus implementations share. */
export class Subscribers {
  readonly channels = new Map<string, Set<NotifyHandler>>();
  readonly reconnectHandlers = new Set<() => void>();

  constructor(private readonly logger?: Logger) {}

  deliver(channel: string, payload: string): void {
    for (const handler of this.channels.get(channel) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        this.logger?.error({ event: 'db.bus.handler_failed', channel, err: error }, 'notify handler threw');
      }
    }
  }

  /** Adds a handler; returns true when it is the channel's first (LISTEN is needed). */
  add(channel: string, handler: NotifyHandler): boolean {
    let set = this.channels.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(handler);
    return first;
  }

  /** Removes a handler; returns true when the channel has none left (UNLISTEN is due). */
  remove(channel: string, handler: NotifyHandler): boolean {
    const set = this.channels.get(channel);
    if (!set?.delete(handler)) return false;
    if (set.size > 0) return false;
    this.channels.delete(channel);
    return true;
  }

  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  reconnected(): void {
    for (const handler of this.reconnectHandlers) handler();
  }
}
