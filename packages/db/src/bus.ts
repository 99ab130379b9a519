import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '@sess/core';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import type { DbOrTx, NotifyBus, NotifyHandler } from './types.ts';

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_PAYLOAD_BYTES = 7900; // PostgreSQL refuses NOTIFY payloads of 8000 bytes and more.

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Invalid notify channel "${channel}": use lower-case letters, digits and _.`);
}

function checkPayload(payload: string): void {
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
class Subscribers {
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

export interface PostgresBusOptions {
  url: string;
  publisher: DbOrTx;
  logger?: Logger;
  /** First retry delay after the listening connection is lost; doubles up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * The PostgreSQL bus: one dedicated LISTEN connection per process (never taken from the pool),
 * publishing through the pool. When the listening connection drops, it reconnects with
 * exponential backoff and jitter, re-issues LISTEN for every channel, then tells
 * `onReconnect` handlers so waiters re-read what they may have missed.
 */
export function createPostgresBus(options: PostgresBusOptions): NotifyBus {
  const { logger, publisher } = options;
  const minBackoff = options.minBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  const subscribers = new Subscribers(logger);
  let closing = false;
  let reconnecting: Promise<void> | undefined;

  const listener = postgres(options.url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: 'sess-listen' },
    onnotify: (channel: string, payload: string) => subscribers.deliver(channel, payload),
    onclose: () => {
      if (!closing && subscribers.channels.size > 0) reconnecting ??= relisten().finally(() => (reconnecting = undefined));
    },
  } as postgres.Options<Record<string, never>>);

  const listenSql = (channel: string) => listener.unsafe(`listen "${channel}"`);

  async function relisten(): Promise<void> {
    let delay = minBackoff;
    while (!closing) {
      try {
        for (const channel of [...subscribers.channels.keys()]) await listenSql(channel);
        logger?.info({ event: 'db.bus.reconnected', channels: subscribers.channels.size }, 'listen connection restored');
        subscribers.reconnected();
        return;
      } catch (error) {
        logger?.warn({ event: 'db.bus.reconnect_failed', err: error, retryInMs: delay }, 'listen connection still down');
        await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random() / 2)));
        delay = Math.min(delay * 2, maxBackoff);
      }
    }
  }

  return {
    async publish(channel, payload) {
      await notify(publisher, channel, payload);
    },
    async subscribe(channel, handler) {
      checkChannel(channel);
      if (subscribers.add(channel, handler)) {
        try {
          await listenSql(channel);
        } catch (error) {
          subscribers.remove(channel, handler);
          throw error;
        }
      }
      return async () => {
        if (subscribers.remove(channel, handler) && !closing) await listener.unsafe(`unlisten "${channel}"`).catch(() => {});
      };
    },
    onReconnect: (handler) => subscribers.onReconnect(handler),
    async close() {
      closing = true;
      subscribers.channels.clear();
      await listener.end({ timeout: 1 });
    },
  };
}

/** The embedded bus: PGlite's own LISTEN/NOTIFY on its single in-process connection. */
export function createPgliteBus(pg: PGlite, logger?: Logger): NotifyBus {
  const subscribers = new Subscribers(logger);
  const unlisteners = new Map<string, () => Promise<void>>();
  return {
    async publish(channel, payload) {
      checkChannel(channel);
      checkPayload(payload);
      await pg.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async subscribe(channel, handler) {
      checkChannel(channel);
      if (subscribers.add(channel, handler)) {
        unlisteners.set(
          channel,
          await pg.listen(channel, (payload) => subscribers.deliver(channel, payload)),
        );
      }
      return async () => {
        if (subscribers.remove(channel, handler)) {
          const unlisten = unlisteners.get(channel);
          unlisteners.delete(channel);
          if (!pg.closed) await unlisten?.();
        }
      };
    },
    onReconnect: (handler) => subscribers.onReconnect(handler),
    async close() {
      subscribers.channels.clear();
      unlisteners.clear();
    },
  };
}
