import type {
  AskView,
  CreateAskRequest,
  CreatedAsk,
  CreatedSession,
  CreatedWebhook,
  CreateSessionRequest,
  CreateWebhookRequest,
  EventPage,
  RotatedWebhook,
  SessionList,
  SessionView,
  WebhookDeliveryList,
  WebhookList,
  WebhookPayload,
  WithdrawnSession,
} from '@sess/contract';
import { createRemoteKeySet, type ReceiptKeySet } from '@sess/receipts';
import { createAsk } from '../asks/create-ask.ts';
import { readAsk } from '../asks/read-ask.ts';
import { checkOrigin } from '../config/check-origin.ts';
import { SessClientError } from '../errors/sess-client-error.ts';
import type { CallOptions, ClientConfig, SessResult, SessWriteResult, WriteOptions } from '../http/send-request.ts';
import { type VerifiedDecision, type VerifyDecisionOptions, verifyDecision } from '../receipts/verify-decision.ts';
import { type VerifiedResponse, type VerifyResponseInput, verifyResponse } from '../receipts/verify-response.ts';
import { type CompleteSessionInput, completeSession } from '../sessions/complete-session.ts';
import { createSession } from '../sessions/create-session.ts';
import { listSessionEvents, type SessionEventsQuery } from '../sessions/list-session-events.ts';
import { type ListSessionsQuery, listSessions } from '../sessions/list-sessions.ts';
import { type PublishSessionInput, publishSession } from '../sessions/publish-session.ts';
import { type ReadSessionQuery, readSession } from '../sessions/read-session.ts';
import { type WaitOptions, waitForSession } from '../sessions/wait-for-session.ts';
import { withdrawSession } from '../sessions/withdraw-session.ts';
import { CLIENT_VERSION } from '../version.ts';
import { verifyWebhook, type WebhookHeaders } from '../webhooks/verify-webhook.ts';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  testWebhook,
} from '../webhooks/webhook-routes.ts';

/** Options of `createSessClient`. Give `apiKey` or `credential`. */
export interface SessClientOptions {
  /** The API origin: `https://…`, no path, query or credentials. */
  origin: string;
  /** A workspace API key (`Authorization: Bearer …`). Keep it out of prompts and logs. */
  apiKey?: string | undefined;
  /** Or a provider called before every request (a key from a vault, a rotating token). */
  credential?: (() => Promise<string>) | undefined;
  /** Defaults to the global `fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  /** Deadline of one request in milliseconds (default 30 000); a read with `wait_ms` gets that much longer. */
  timeoutMs?: number | undefined;
  /** Put in front of this client's own `User-Agent` (`@sess/client/0.1.0`). */
  userAgent?: string | undefined;
  /**
   * @deprecated Ignored: plain `http://` to a loopback host (`localhost`, `127.0.0.1`, `[::1]`) is
   * always taken, and to any other host never.
   */
  allowInsecureLocalhost?: boolean | undefined;
  /** The receipts' `iss`, when it is not the origin (a split deployment). */
  receiptIssuer?: string | undefined;
  /** For a server that does not send `Sess-Workspace-Id`: the workspace to trust; when both are there they must agree. */
  expectedWorkspaceId?: string | undefined;
  /** The receipt key-set cache (`createRemoteKeySet` of @sess/receipts): its cooldown, maximum age and fetch deadline. */
  keySet?: { cooldownMs?: number; maxAgeMs?: number; timeoutMs?: number } | undefined;
}

/** Webhook endpoints (Standard Webhooks signatures). */
export interface SessWebhooks {
  /** Register an endpoint; `data.secret` (whsec_…) is shown only here. */
  create(input: CreateWebhookRequest, options?: WriteOptions): Promise<SessWriteResult<CreatedWebhook>>;
  list(options?: CallOptions): Promise<SessResult<WebhookList>>;
  delete(id: string, options?: WriteOptions): Promise<SessWriteResult<{ id: string; deleted: true }>>;
  /** A new secret, shown once; the old one signs too for 24 hours. */
  rotateSecret(id: string, options?: WriteOptions): Promise<SessWriteResult<RotatedWebhook>>;
  /** Sends a `test` event to the endpoint. */
  test(id: string, options?: WriteOptions): Promise<SessWriteResult<{ deliveryId: string; eventId: string }>>;
  /** The endpoint's last deliveries and their tries. */
  deliveries(id: string, options?: CallOptions): Promise<SessResult<WebhookDeliveryList>>;
  /** `verifyWebhook` with this client's receipt keys: an `answered` event's receipt is verified too. */
  verify(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): Promise<WebhookPayload>;
}

/** Interactions: one link, one person, revision by revision. */
export interface SessSessions {
  /** Create from sess_request's arguments; `data.humanUrl` is the link to show the person. */
  create(input: CreateSessionRequest, options?: WriteOptions): Promise<SessWriteResult<CreatedSession>>;
  /** Read the session (one request; with `wait_ms` the server holds it up to 45 s). */
  read(sessionId: string, query?: ReadSessionQuery, options?: CallOptions): Promise<SessResult<SessionView>>;
  /** Wait until the revision is answered, completed, expired or withdrawn, or the wait ends (state still `waiting`). */
  wait(sessionId: string, options?: WaitOptions): Promise<SessResult<SessionView>>;
  /** Show a follow-up on the same link (`If-Match: expected_revision`). */
  publish(sessionId: string, input: PublishSessionInput, options?: WriteOptions): Promise<SessWriteResult<SessionView>>;
  /** Finish with the answer of `expected_revision`: the page tells the person the agent has it. */
  complete(sessionId: string, input: CompleteSessionInput, options?: WriteOptions): Promise<SessWriteResult<SessionView>>;
  /** Withdraw the question (idempotent). */
  withdraw(sessionId: string, options?: WriteOptions): Promise<SessWriteResult<WithdrawnSession>>;
  /** List sessions and Asks, newest first. */
  list(query?: ListSessionsQuery, options?: CallOptions): Promise<SessResult<SessionList>>;
  /** What happened to a session or Ask (created, opened, answered, …), oldest first, a page at a time. */
  events(sessionId: string, query?: SessionEventsQuery, options?: CallOptions): Promise<SessResult<EventPage>>;
}

/** Asks: one shared link, many people. */
export interface SessAsks {
  /** Create from sess_ask's arguments with `respondents`; `data.humanUrl` is the shared link. */
  create(input: CreateAskRequest, options?: WriteOptions): Promise<SessWriteResult<CreatedAsk>>;
  /** Read the Ask: state, counts, and every answer with its receipt. */
  read(askId: string, options?: CallOptions): Promise<SessResult<AskView>>;
  /** Close the Ask (idempotent). */
  withdraw(askId: string, options?: WriteOptions): Promise<SessWriteResult<WithdrawnSession>>;
}

/** Receipt verification against the server's JWKS. */
export interface SessReceipts {
  /** Verify an answer for exactly this session, revision, event, Surface and workspace; see `VerifyResponseInput`. */
  verifyResponse(input: VerifyResponseInput): Promise<VerifiedResponse>;
  /**
   * Verify a decided Ask (as `asks.read` returns it): its decision receipt, every answer's receipt
   * and values, and that the outcome and counts it shows are the ones signed; see `VerifiedDecision`.
   */
  verifyDecision(ask: AskView, options?: VerifyDecisionOptions): Promise<VerifiedDecision>;
}

/** A client for one Sess origin and credential. */
export interface SessClient {
  readonly origin: string;
  readonly sessions: SessSessions;
  readonly asks: SessAsks;
  readonly receipts: SessReceipts;
  /** Webhook endpoints of the workspace, and the receiver's check of a delivery. */
  readonly webhooks: SessWebhooks;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** `User-Agent` product tokens: visible ASCII and spaces only, so the header cannot be split. */
const USER_AGENT = /^[\x20-\x7e]{1,200}$/;

function refuse(message: string): SessClientError {
  return new SessClientError({ kind: 'configuration', operation: 'createSessClient', message });
}

/**
 * A typed client for Sess's `/v1` API. Checks its configuration at once (a bad origin or a
 * missing key throws `configuration` here, not at the first call) and makes no request until
 * a method is called.
 * @throws SessClientError `configuration`.
 */
export function createSessClient(options: SessClientOptions): SessClient {
  const origin = checkOrigin(options?.origin);
  const { apiKey } = options;
  let credential: () => Promise<string>;
  if (options.credential !== undefined) {
    if (typeof options.credential !== 'function') throw refuse('credential must be a function that returns the key.');
    if (apiKey !== undefined) throw refuse('Give apiKey or credential, not both.');
    credential = options.credential;
  } else if (typeof apiKey === 'string' && apiKey !== '') {
    credential = async () => apiKey;
  } else {
    throw refuse('apiKey (or credential) is required: a Sess API key of the workspace.');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw refuse('timeoutMs must be a positive number of milliseconds.');
  const ownAgent = `@sess/client/${CLIENT_VERSION}`;
  if (options.userAgent !== undefined && !USER_AGENT.test(options.userAgent)) {
    throw refuse('userAgent must be printable ASCII, at most 200 characters.');
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw refuse('fetch must be a function.');
  if (options.expectedWorkspaceId !== undefined && !/^ws_[a-z2-7]{26}$/.test(options.expectedWorkspaceId)) {
    throw refuse('expectedWorkspaceId must be a workspace id (ws_…).');
  }
  const config: ClientConfig = {
    origin,
    credential,
    fetch: options.fetch,
    timeoutMs,
    userAgent: options.userAgent ? `${options.userAgent} ${ownAgent}` : ownAgent,
    expectedWorkspaceId: options.expectedWorkspaceId,
  };

  // One key set per client, fetched on the first verification and cached (an unknown kid refetches at once).
  let keys: ReceiptKeySet | undefined;
  const keySet = () => {
    keys ??= createRemoteKeySet(`${origin}/.well-known/jwks.json`, {
      ...options.keySet,
      // Resolved per fetch, like the API calls.
      fetch: (input, init) => (options.fetch ?? globalThis.fetch)(input, init),
    });
    return keys;
  };
  const issuer = options.receiptIssuer ?? origin;

  return {
    origin,
    sessions: {
      create: (input, callOptions) => createSession(config, input, callOptions),
      read: (sessionId, query, callOptions) => readSession(config, sessionId, query, callOptions),
      wait: (sessionId, waitOptions) => waitForSession(config, sessionId, waitOptions),
      publish: (sessionId, input, callOptions) => publishSession(config, sessionId, input, callOptions),
      complete: (sessionId, input, callOptions) => completeSession(config, sessionId, input, callOptions),
      withdraw: (sessionId, callOptions) => withdrawSession(config, sessionId, callOptions),
      list: (query, callOptions) => listSessions(config, query, callOptions),
      events: (sessionId, query, callOptions) => listSessionEvents(config, sessionId, query, callOptions),
    },
    asks: {
      create: (input, callOptions) => createAsk(config, input, callOptions),
      read: (askId, callOptions) => readAsk(config, askId, callOptions),
      withdraw: (askId, callOptions) => withdrawSession(config, askId, callOptions),
    },
    receipts: {
      verifyResponse: (input) => verifyResponse({ keys: keySet(), issuer }, input),
      verifyDecision: (ask, verifyOptions) =>
        verifyDecision({ keys: keySet(), issuer, expectedWorkspaceId: options.expectedWorkspaceId }, ask, verifyOptions),
    },
    webhooks: {
      create: (input, callOptions) => createWebhook(config, input, callOptions),
      list: (callOptions) => listWebhooks(config, callOptions),
      delete: (id, callOptions) => deleteWebhook(config, id, callOptions),
      rotateSecret: (id, callOptions) => rotateWebhookSecret(config, id, callOptions),
      test: (id, callOptions) => testWebhook(config, id, callOptions),
      deliveries: (id, callOptions) => listWebhookDeliveries(config, id, callOptions),
      verify: (payload, headers, secret) => verifyWebhook(payload, headers, secret, { receipts: { keys: keySet(), issuer } }),
    },
  };
}
