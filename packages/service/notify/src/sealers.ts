import { createSealer, type Sealer } from '@sess/core';

/** One sealing key per purpose, derived from the server secret (see core's `createSealer`). */
export interface NotifySealers {
  /** A device's endpoint and keys; additional data: the subscription id. */
  subscription: Sealer;
  /** An outbox row's title and link; additional data: the session id (an Ask's answer rows copy its watch row's payload). */
  outbox: Sealer;
  /** The VAPID private key; additional data: the row id. */
  vapid: Sealer;
}

export function createNotifySealers(secret: string): NotifySealers {
  return {
    subscription: createSealer(secret, 'sess:notify:subscription:v1'),
    outbox: createSealer(secret, 'sess:notify:outbox:v1'),
    vapid: createSealer(secret, 'sess:notify:vapid:v1'),
  };
}
