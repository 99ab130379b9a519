import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '@sess/core';
import { checkChannel, checkPayload, Subscribers } from './bus.ts';
import type { NotifyBus } from './types.ts';

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
        unlisteners.set(channel, await pg.listen(channel, (payload) => subscribers.deliver(channel, payload)));
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
