import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PoolStats } from './pool-gate.ts';
import type * as schema from './schema/index.ts';

export type Schema = typeof schema;

/** The drizzle handle every verb uses. It is the same type on PostgreSQL and on PGlite. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** A transaction handle (what `db.transaction(fn)` hands to `fn`). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** `db` or a transaction: verbs accept either so callers can compose them in one transaction. */
export type DbOrTx = Db | Tx;

export type Driver = 'postgres' | 'pglite';

/** A notification handler. Payloads are strings (PostgreSQL NOTIFY payloads, ≤ 8000 bytes). */
export type NotifyHandler = (payload: string) => void;

/**
 * In-process publish/subscribe over PostgreSQL LISTEN/NOTIFY: a message published on any
 * replica reaches every subscriber of that channel on every replica.
 */
export interface NotifyBus {
  /** Sends `payload` on `channel` (outside a transaction; use `notifyInTransaction` inside one). */
  publish(channel: string, payload: string): Promise<void>;
  /** Calls `handler` for every payload on `channel`; resolves once LISTEN is active. */
  subscribe(channel: string, handler: NotifyHandler): Promise<() => Promise<void>>;
  /**
   * Called after the listening connection came back from a loss. Notifications sent while it
   * was down are gone, so anything waiting on one must re-read its state.
   */
  onReconnect(handler: () => void): () => void;
  close(): Promise<void>;
}

/** An open database: the rest of the code cannot tell which driver it got. */
export interface Database {
  readonly driver: Driver;
  readonly db: Db;
  readonly bus: NotifyBus;
  /** Round-trips a trivial query; throws when the database is unreachable or gives no answer within its bound (2 s). */
  ping(): Promise<void>;
  /**
   * Resolves once calls reach the database again: at once, unless a refused connection opened the
   * breaker (PostgreSQL), then when its probe connected.
   */
  whenReachable(): Promise<void>;
  /** The pool gate's use and waits now (counts only; metrics read it when scraped). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}
