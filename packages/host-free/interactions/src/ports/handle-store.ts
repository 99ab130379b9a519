import { type HandleState, type InteractionListStatus, type ResponseResult, UNFINISHED_HANDLE_STATES } from '@sess/contract';

/**
 * The authority a handle is bound to. Another principal, origin, workspace or client never sees
 * the handle (`HANDLE_NOT_FOUND`); the same client under another grant or grant generation gets
 * `BINDING_MISMATCH`.
 */
export interface HandleBinding {
  /** The origin the creating request was addressed to (scheme and Host, as a browser writes it). */
  origin: string;
  workspaceId: string;
  principalId: string;
  clientId: string;
  grantId: string;
  grantGeneration: number;
}

/** The states that count against the per-principal cap. */
export const UNFINISHED_STATES: ReadonlySet<HandleState> = new Set(UNFINISHED_HANDLE_STATES);

/** At most this many unfinished handles per principal (`STATE_STORE_FULL`). */
export const MAX_UNFINISHED_PER_PRINCIPAL = 100;

/** What a create was about to do, saved before (or with) the create. */
export interface CreateIntent {
  tool: 'sess_request' | 'sess_ask';
  idempotencyKey: string;
  requestSha256: string;
}

/**
 * The exact request of a publish, complete or cancel, saved before dispatch so a lost outcome
 * can be reconciled by repeating it byte for byte (same body, same If-Match, same key).
 */
export interface SavedMutation {
  kind: 'publish' | 'complete' | 'cancel';
  /** The If-Match revision. */
  expectedRevision: number;
  responseEventId?: string;
  /** SHA-256 of the canonical request arguments: an identical repeat has the same hash. */
  requestSha256: string;
  idempotencyKey: string;
  /** The Surface a publish shows (the body); absent for complete and cancel. */
  surface?: unknown;
  surfaceSha256?: string;
}

/** A verified, re-confirmed answer, kept (sealed) until the handle is finished. */
export interface SavedResponse {
  eventId: string;
  revision: number;
  actionId: string;
  values: ResponseResult['values'];
  receipt: string;
  answeredAt: string;
  /** The way the verified receipt says the answer came; absent in a record saved before `via` (a link answer). */
  via?: ResponseResult['via'];
  /** A chat answer's principal, from the verified receipt. */
  viaPrincipalId?: string;
  /** The level the verified receipt signs; absent in a record saved before levels (a link answer). */
  assurance?: ResponseResult['assurance'];
  /** Above link: the receipt's opaque id of the answering account. */
  respondent?: string;
  /** Above link, read with the workspace's own API key: the answering account's e-mail (not signed). */
  respondentEmail?: string;
}

/** One handle record, decoded. */
export interface HandleRecord extends HandleBinding {
  handle: string;
  kind: 'interaction' | 'ask';
  state: HandleState;
  /** Compare-and-set counter: every update names the version it read. */
  version: number;
  sessionId?: string;
  askId?: string;
  revision: number;
  surfaceSha256?: string;
  title: string;
  expiresAt?: string;
  intent?: CreateIntent;
  pending?: SavedMutation;
  confirmed?: SavedMutation & { resultRevision: number };
  /** Sealed at rest; present until the handle is finished. */
  humanUrl?: string;
  response?: SavedResponse;
  blockedReason?: string;
  createdAt: string;
  updatedAt: string;
}

/** Fields an update may change (`undefined` leaves a field alone, `null` clears it). */
export interface HandlePatch {
  state?: HandleState;
  sessionId?: string;
  askId?: string;
  revision?: number;
  surfaceSha256?: string;
  expiresAt?: string | null;
  intent?: CreateIntent | null;
  pending?: SavedMutation | null;
  confirmed?: (SavedMutation & { resultRevision: number }) | null;
  /** The sealed part, replaced as a whole: the link and the saved answer. `null` removes both. */
  sealed?: SealedData | null;
  blockedReason?: string | null;
}

/** What is sealed at rest in a record. */
export interface SealedData {
  humanUrl?: string;
  response?: SavedResponse;
}

/** `sess_list` filters (the contract's `INTERACTION_LIST_STATUSES`). `open` is every unfinished handle. */
export type ListStatus = InteractionListStatus;

/**
 * A handle store bound to one authority (see `HandleBinding`). Every read is scoped to the
 * binding's workspace; the verbs still re-check each loaded record against the whole binding.
 * Errors are `SessError('STATE_STORE_ERROR')` (retryable only for a transient failure),
 * `STATE_STORE_FULL`, or `INVALID_ARGUMENTS` for text the store cannot keep.
 */
export interface HandleStore {
  readonly binding: HandleBinding;
  get(handle: string): Promise<HandleRecord | undefined>;
  /** Inserts a new record, refusing past `MAX_UNFINISHED_PER_PRINCIPAL` unfinished ones. */
  insert(record: HandleRecord): Promise<void>;
  /** Applies `patch` when the record is still at `expectedVersion`; undefined when another call changed it first. */
  update(handle: string, expectedVersion: number, patch: HandlePatch): Promise<HandleRecord | undefined>;
  /**
   * Deletes a `create_intent` record still at `expectedVersion`: a create the runtime refused, or
   * that certainly never reached it, leaves nothing behind (the agent was never given that
   * handle), as an atomic create leaves nothing. Any other state is kept. False when nothing was
   * deleted.
   */
  removeIntent(handle: string, expectedVersion: number): Promise<boolean>;
  /** The principal's handles, newest first. */
  list(input: { status: ListStatus; cursor?: string; limit: number }): Promise<{ records: HandleRecord[]; nextCursor?: string }>;
}

/** How a host hands the verbs a store bound to the request's authority. */
export type HandleStoreFactory = (
  binding: HandleBinding,
  principal?: { workspaceId: string; principalId: string },
) => HandleStore;
