import { createSweeper, type Logger } from '@sess/core';
import { createKeyedGate, type Database, type KeyedGate, type Tx } from '@sess/db';
import type { SigningKeyRing } from '@sess/receipts';
import { deleteExpiredIdempotencyKeys } from '../idempotency/delete-expired-keys.ts';
import { KeyRingCache } from '../keys/key-ring-cache.ts';
import { SIGNING_KEYS_CHANNEL } from '../keys/signing-keys.ts';
import { DEFAULT_LINK_HORIZON_SECONDS } from '../model/lifetimes.ts';
import { prepareQueries, type Queries } from '../model/queries.ts';
import { CreateBatcher } from '../sessions/create-batcher.ts';
import { createFloorReader, type FloorReader } from '../sessions/floor-reader.ts';
import { KeyedQueue } from '../sessions/keyed-queue.ts';
import type { CreateCompanion } from '../sessions/session-rows.ts';
import { type WaitClock, WaiterHub } from '../waits/waiter-hub.ts';
import type { FormsObserver } from './forms-observer.ts';

export type { FormsObserver } from './forms-observer.ts';

export interface FormsRuntimeOptions {
  database: Database;
  /** PUBLIC_URL without a trailing slash: the receipts' issuer, and the links' base unless `linkUrl` is set. */
  publicUrl: string;
  /** SESS_LINK_URL: the origin answer links (`humanUrl`) point at; `publicUrl` when absent. */
  linkUrl?: string;
  /** The server secret: seals signing keys and idempotent create responses. */
  secret: string;
  logger: Logger;
  /** The clock; tests inject one. */
  now?: () => Date;
  /** What parked waits time their deadlines and expiries on (default: real time). */
  waitClock?: WaitClock;
  /** Horizon of extendable links, in seconds from creation (default 7 days). */
  linkHorizonSeconds?: number;
  /**
   * Called inside the transaction that records an answer to an Ask (a respondent's page), so
   * what it writes commits with the answer or not at all (apps/server enqueues the Ask owner's
   * notification here). Without it an Ask answer is one autocommitted statement.
   */
  onAskAnswer?: (tx: Tx, answer: AskAnswerEvent) => Promise<void>;
  /** The bound on each workspace's writes in flight (see `WORKSPACE_WRITE_DEFAULTS`). */
  workspaceWrites?: Partial<WorkspaceWriteBound>;
  /**
   * Notifications of forms made with a workspace API key (a create with `notifyOwners`, which
   * /v1 sets). Only when `wanted(workspaceId)` is true does such a create take a transaction and
   * call `enqueue` in it, so the notice commits with the form or not at all; otherwise the create
   * is unchanged (the group-commit path). Without this option nobody is told.
   */
  apiKeyNotices?: ApiKeyNotices;
  /**
   * Notices of an Ask with named respondents (`respondents.people`) for each of those people, on
   * their own devices: `createAsk` (/v1) stores such an Ask in a transaction and calls `enqueue`
   * in it, so the notices commit with the Ask or not at all. Without it nobody is told.
   */
  peopleNotices?: PeopleNotices;
  /** Told of creates, answers and wakes (apps/server's metrics); nothing is told when absent. */
  observer?: FormsObserver;
}

/** How many writes of one workspace hold a database connection at once, and how many wait, how long. */
export interface WorkspaceWriteBound {
  /** Transactions and answers of one workspace in flight at once (in this process). */
  concurrent: number;
  /** Writes of one workspace that may wait for a turn; one more is refused at once. */
  waiting: number;
  /** How long one may wait for its turn. */
  waitMs: number;
}

/**
 * A workspace may hold 6 connections for its writes (of the 8 a pool of 10 lets writes take), so
 * one busy workspace still writes at nearly the pool's pace while two stay for the others; its
 * 65th waiting write, or one waiting 2 s (a lock holds its turns), is answered 503.
 */
export const WORKSPACE_WRITE_DEFAULTS: WorkspaceWriteBound = { concurrent: 6, waiting: 64, waitMs: 2_000 };

/** The hooks of `FormsRuntimeOptions.apiKeyNotices` (apps/server fills them from @sess/notify). */
export interface ApiKeyNotices {
  /** Whether anyone of the workspace would be told (asked before the create; may be cached briefly). */
  wanted(workspaceId: string): Promise<boolean>;
  /** Writes the notice in the create's transaction; true when anyone will be told. */
  enqueue(tx: Tx, form: ApiKeyNoticeForm): Promise<boolean>;
}

/** The hook of `FormsRuntimeOptions.peopleNotices` (apps/server fills it from @sess/notify). */
export interface PeopleNotices {
  /**
   * Writes the notice of each of `userIds` who can be reached, in the create's transaction; true
   * when anyone will be told. `notBefore`: sent from then on (an Ask's backup people).
   */
  enqueue(tx: Tx, form: ApiKeyNoticeForm & { userIds: readonly string[]; notBefore?: Date }): Promise<boolean>;
}

/** A form just created with an API key, as its notice needs it. */
export interface ApiKeyNoticeForm {
  workspaceId: string;
  sessionId: string;
  /** The Surface's title. */
  title: string;
  /** The link (`humanUrl`): a bearer capability, never logged. */
  url: string;
  expiresAt: Date;
}

/** An accepted answer to an Ask, as `onAskAnswer` is told of it. */
export interface AskAnswerEvent {
  sessionId: string;
  workspaceId: string;
  /** Answers the Ask has now, this one included, and how many it takes. */
  answered: number;
  max: number;
  /** This answer filled the Ask: it takes no more. */
  closed: boolean;
}

/**
 * Everything the verbs share in one process: the database, the clock, the signing keys
 * (imported once, reloaded on rotation), the prepared hot queries, and the waiter map fed by
 * one notify-bus subscription. Create one per process with `createFormsRuntime` and pass it to
 * every verb; `close()` releases parked waits and the subscriptions.
 */
export interface FormsRuntime {
  readonly database: Database;
  /** The receipts' issuer (PUBLIC_URL). */
  readonly publicUrl: string;
  /** The base of every answer link (`humanUrl`): SESS_LINK_URL, or PUBLIC_URL. */
  readonly linkUrl: string;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly linkHorizonSeconds: number;
  /** Internal: the server secret. */
  readonly secret: string;
  /** Internal: prepared statements of the hot reads. */
  readonly queries: Queries;
  /** Internal: group commit of the creates that need no transaction. */
  readonly creates: CreateBatcher;
  /** Internal: the floors of new forms, cached while every change is heard (../sessions/floor-reader.ts). */
  readonly floors: FloorReader;
  /**
   * Internal: the creates of a workspace whose plan's bound is full are counted exactly one at a
   * time per process, so they wait here rather than each holding a connection on the gate's lock.
   */
  readonly exactAdmissions: KeyedQueue;
  /**
   * Internal: each workspace's turns at writing (`WorkspaceWriteBound`), taken by every write
   * transaction (`runIdempotent`) and every answer, so one workspace's writes — a burst, or
   * writes stuck on a lock until their `lock_timeout` — cannot take the pool from the others.
   * A write refused a turn fails `DatabaseWaitError('WRITES_BUSY')`: 503, nothing changed.
   */
  readonly workspaceWrites: KeyedGate;
  /** Internal: the companions added with `addCreateCompanion`, written in every create's statement. */
  readonly createCompanions: readonly CreateCompanion[];
  /**
   * Adds rows another module writes in a create's own statement (the in-process MCP backend:
   * the hosted handle record), given per create in `PreparedCreate.store`'s `extras`. Add it
   * before the first create; adding the same companion again changes nothing.
   * @throws Error for another companion of a name already taken
   */
  addCreateCompanion(companion: CreateCompanion): void;
  /** Internal: the parked waits of this process. */
  readonly waiters: WaiterHub;
  /** Internal: the hook of `FormsRuntimeOptions.onAskAnswer`. */
  readonly onAskAnswer: FormsRuntimeOptions['onAskAnswer'];
  /** Internal: the hooks of `FormsRuntimeOptions.apiKeyNotices`. */
  readonly apiKeyNotices: FormsRuntimeOptions['apiKeyNotices'];
  /** Internal: the hook of `FormsRuntimeOptions.peopleNotices`. */
  readonly peopleNotices: FormsRuntimeOptions['peopleNotices'];
  /** Internal: `FormsRuntimeOptions.observer`. */
  readonly observer: FormsObserver | undefined;
  /**
   * Deletes idempotency keys past their replay window, at most hourly per process; creates call
   * it without awaiting (see `createSweeper`). Returns the sweep, or undefined when not due.
   */
  sweepIfDue(): Promise<void> | undefined;
  /** The signing key ring (created on first use when the database has none). */
  keyRing(): Promise<SigningKeyRing>;
  /** Subscribes to the bus (idempotent); verbs call it before they park. */
  start(): Promise<void>;
  /**
   * Lets the `count` oldest waits of this process go now (`readSession` and `waitLink` with a
   * wait): each returns its current view, still waiting, as at its deadline. Returns how many.
   */
  releaseOldestWaits(count: number): number;
  /** How many waits of this process are in progress (parked, or reading between wakes). */
  waitsInProgress(): number;
  close(): Promise<void>;
}

function workspaceWriteGate(given: Partial<WorkspaceWriteBound> = {}): KeyedGate {
  const bound = { ...WORKSPACE_WRITE_DEFAULTS, ...given };
  return createKeyedGate({ perKey: bound.concurrent, maxWaitingPerKey: bound.waiting, waitMs: bound.waitMs });
}

/** Builds the runtime. Nothing touches the database until the first verb runs. */
export function createFormsRuntime(options: FormsRuntimeOptions): FormsRuntime {
  const now = options.now ?? (() => new Date());
  const keys = new KeyRingCache(options.database.db, options.secret, now, options.logger);
  const waiters = new WaiterHub(options.database.bus, options.logger, options.waitClock, options.observer);
  let queries: Queries | undefined;
  const createCompanions: CreateCompanion[] = [];
  const creates = new CreateBatcher(options.database.db, options.logger, createCompanions);
  const sweepIfDue = createSweeper({
    name: 'forms',
    logger: options.logger,
    now,
    sweep: async (at) => ({ idempotencyKeys: await deleteExpiredIdempotencyKeys(options.database.db, at) }),
  });
  const start = () => waiters.start({ [SIGNING_KEYS_CHANNEL]: () => keys.invalidate() });
  const floors = createFloorReader(options.database.db, options.database.bus, () => now().getTime());
  return {
    database: options.database,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    linkUrl: (options.linkUrl ?? options.publicUrl).replace(/\/+$/, ''),
    logger: options.logger,
    now,
    linkHorizonSeconds: options.linkHorizonSeconds ?? DEFAULT_LINK_HORIZON_SECONDS,
    secret: options.secret,
    get queries() {
      queries ??= prepareQueries(options.database.db);
      return queries;
    },
    creates,
    floors,
    createCompanions,
    exactAdmissions: new KeyedQueue(),
    workspaceWrites: workspaceWriteGate(options.workspaceWrites),
    addCreateCompanion(companion) {
      const known = createCompanions.find((c) => c.name === companion.name);
      if (known === companion) return;
      if (known) throw new Error(`A create companion named "${companion.name}" is already in this forms runtime.`);
      createCompanions.push(companion);
    },
    waiters,
    onAskAnswer: options.onAskAnswer,
    apiKeyNotices: options.apiKeyNotices,
    peopleNotices: options.peopleNotices,
    observer: options.observer,
    sweepIfDue,
    async keyRing() {
      // Listening first means a rotation committed after this load is never missed.
      await start();
      return keys.ring();
    },
    start,
    releaseOldestWaits: (count) => waiters.releaseOldest(count),
    waitsInProgress: () => waiters.size,
    close: async () => {
      await Promise.all([waiters.close(), floors.close()]);
    },
  };
}
