import type { Logger } from '@sess/core';
import postgres from 'postgres';
import { checkChannel, notify, Subscribers } from './bus.ts';
import { reconnectBackoffSeconds } from './reconnect-backoff.ts';
import type { DbOrTx, NotifyBus } from './types.ts';

export interface PostgresBusOptions {
  url: string;
  publisher: DbOrTx;
  logger?: Logger;
  /** How long one connection attempt of the listening connection may take (default 5 s). */
  connectTimeoutSeconds?: number;
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
    connect_timeout: options.connectTimeoutSeconds ?? 5,
    backoff: reconnectBackoffSeconds,
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
