import type { IncomingMessage } from 'node:http';
import { SessError } from '@sess/core';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@sess/db';
import { busyResponse, type RefusalReason, type RequestAdmission, refusalMessage } from '@sess/mcp';
import { answersOAuthErrors, temporarilyUnavailableJson } from '@sess/oauth';
import { htmlPage, messagesFor, pageLanguage, renderMessagePage, STYLESHEET_PATH } from '@sess/web';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';

/*
 * Admission control (issue 33): a bound on the requests in flight of each class, beyond which
 * Sess answers at once — 503 with `Retry-After`, in the shape the face's clients read — instead
 * of letting them queue for the database pool until everyone times out and retries. Classes are
 * bounded apart, so creates at their bound leave the answer pages, and parked waits leave the
 * tool calls, room. Health is never bounded. Requests that change something are started only
 * once it is clear their client is still there.
 */

/** The kinds of request bounded apart. */
export const ADMISSION_CLASSES = ['mcp', 'waits', 'writes', 'answers', 'pages'] as const;
export type AdmissionClass = (typeof ADMISSION_CLASSES)[number];
/** Requests in flight allowed per class; 0 is no bound. */
export type AdmissionLimits = Readonly<Record<AdmissionClass, number>>;

/** Classes whose requests change something: started only after a look for a client that already left. */
const CHANGES: Readonly<Record<AdmissionClass, boolean>> = { mcp: true, writes: true, answers: true, waits: false, pages: false };

/** Paths served ahead of every bound: health, and the one static stylesheet. */
const UNBOUNDED_PATHS = new Set(['/healthz', '/readyz', STYLESHEET_PATH]);

/**
 * The class a request counts under, from its method and path (and /v1's `wait_ms`), or
 * undefined for what is never bounded. MCP tool calls are `mcp` (a `sess_response` that parks
 * moves to `waits` once the edge has read it); the answer page's long-poll and a /v1 read with
 * `wait_ms` are `waits`; /v1 posts are `writes`; posts to a link are `answers`; everything else
 * (pages, /v1 reads, sign-in, account and OAuth) is `pages`.
 */
export function classifyRequest(
  method: string,
  path: string,
  query: (name: string) => string | undefined,
): AdmissionClass | undefined {
  if (UNBOUNDED_PATHS.has(path)) return undefined;
  const reads = method === 'GET' || method === 'HEAD';
  if (path === '/mcp') return reads || method === 'OPTIONS' ? 'pages' : 'mcp';
  if (path.startsWith('/s/')) {
    if (!reads) return 'answers';
    return path.endsWith('/wait') ? 'waits' : 'pages';
  }
  if (path.startsWith('/v1/')) {
    if (!reads) return 'writes';
    return Number(query('wait_ms')) > 0 ? 'waits' : 'pages';
  }
  return 'pages';
}

/** The counts of requests in flight per class, against their bounds. */
export class Admission {
  readonly limits: AdmissionLimits;
  readonly #inFlight: Record<AdmissionClass, number> = { mcp: 0, waits: 0, writes: 0, answers: 0, pages: 0 };
  /** Whether a request's connection is past the connection cap (see ConnectionCap): only health is served on it. */
  readonly #pastCap: (incoming: IncomingMessage) => boolean;

  constructor(limits: AdmissionLimits, pastCap: (incoming: IncomingMessage) => boolean = () => false) {
    this.limits = limits;
    this.#pastCap = pastCap;
  }

  /** Takes a place under `admissionClass`'s bound; false, and nothing taken, when it is full. */
  enter(admissionClass: AdmissionClass): boolean {
    const inFlight = this.#inFlight[admissionClass];
    const limit = this.limits[admissionClass];
    if (limit > 0 && inFlight >= limit) return false;
    this.#inFlight[admissionClass] = inFlight + 1;
    return true;
  }

  leave(admissionClass: AdmissionClass): void {
    this.#inFlight[admissionClass]--;
  }

  inFlight(admissionClass: AdmissionClass): number {
    return this.#inFlight[admissionClass];
  }

  /** Whether a request came on a connection opened past the connection cap: then only health is served. */
  isPastCap(incoming: IncomingMessage | undefined): boolean {
    return incoming !== undefined && this.#pastCap(incoming);
  }

  /** A request's place, none taken yet (the MCP edge takes it once it has read what the call is). */
  ticket(): AdmissionTicket {
    return new AdmissionTicket(this);
  }

  /** Takes a place for a request, or says why not: its class is full, or its connection is past the cap. */
  admit(admissionClass: AdmissionClass, incoming: IncomingMessage | undefined): AdmissionTicket | undefined {
    if (this.isPastCap(incoming)) return undefined;
    const ticket = this.ticket();
    return ticket.enter(admissionClass) ? ticket : undefined;
  }
}

/** One request's place under one class, given back once when it ends. */
export class AdmissionTicket implements RequestAdmission {
  readonly #admission: Admission;
  #held: AdmissionClass | undefined;

  constructor(admission: Admission) {
    this.#admission = admission;
  }

  /** Takes a place under `admissionClass` (a ticket holds at most one); false when it is full. */
  enter(admissionClass: AdmissionClass): boolean {
    if (this.#held !== undefined || !this.#admission.enter(admissionClass)) return false;
    this.#held = admissionClass;
    return true;
  }

  /** For the MCP edge: a call that may park is a wait, any other a tool call. */
  admit(kind: 'call' | 'wait'): boolean {
    return this.enter(kind === 'wait' ? 'waits' : 'mcp');
  }

  release(): void {
    if (this.#held === undefined) return;
    this.#admission.leave(this.#held);
    this.#held = undefined;
  }
}

/**
 * Resolves once the event loop has polled for I/O again. A request and its client's close often
 * arrive together (a client that gave up while the request waited to be read); Node hands over
 * the request as its bytes are read and sees the close only on its next poll.
 */
function afterNextPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(setImmediate, resolve));
}

/** Whether the client of a request on @hono/node-server has gone (closed or half-closed its connection). */
export function clientGone(incoming: IncomingMessage | undefined): boolean {
  if (!incoming) return false;
  const socket = incoming.socket;
  return !socket || socket.destroyed || socket.readableEnded;
}

/** What a request whose client left before it started is answered: nobody reads it; the log line says 499. */
function clientGoneResponse(): Response {
  return new Response(null, { status: 499 });
}

/** Runs `run` after the next poll, unless the request's client has left by then (499, nothing run). */
export function whileClientStays<T>(incoming: IncomingMessage | undefined, run: () => Promise<T>): Promise<T | Response> {
  return afterNextPoll().then((): T | Response | Promise<T> => (clientGone(incoming) ? clientGoneResponse() : run()));
}

/** The underlying Node message of a request on @hono/node-server (absent in app.request tests). */
export function nodeIncoming(env: unknown): IncomingMessage | undefined {
  return (env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

const RETRY_AFTER = String(UNAVAILABLE_RETRY_AFTER_SECONDS);

/** The calm page a browser gets, saying what did not happen, in the request's language. */
function busyPage(admissionClass: AdmissionClass, reason: RefusalReason, request: Request | undefined): Response {
  const state = reason === 'busy' ? 'busy' : 'starting';
  const language = request ? pageLanguage(request) : undefined;
  const m = language?.messages ?? messagesFor('en');
  const message =
    admissionClass === 'answers'
      ? m.t('errors.busy.answers', { state })
      : admissionClass === 'pages'
        ? m.t('errors.busy.pages', { state })
        : m.t('errors.busy.other', { state });
  const title = m.t('errors.busy.title', { state });
  return htmlPage(503, (nonce) => renderMessagePage({ title, message, tone: 'warn' }, nonce), {
    headers: { 'Retry-After': RETRY_AFTER },
    ...(language ? { language } : {}),
  });
}

/**
 * A refused request's answer, in the shape its face's clients read: MCP a JSON-RPC error, the
 * OAuth endpoints `temporarily_unavailable`, a browser a page, everything else (/v1, the answer
 * page's long-poll) the JSON error body; each 503 with `Retry-After`, `SESS_UNAVAILABLE`,
 * retryable, with `reason`: `busy` (at a bound) or `starting` (the database is not open yet).
 */
export function busyAnswer(
  admissionClass: AdmissionClass,
  path: string,
  accept: string | undefined,
  requestId?: string,
  reason: RefusalReason = 'busy',
  /** The request, for a page in its language (English without it). */
  request?: Request,
): Response {
  if (path === '/mcp') return busyResponse(UNAVAILABLE_RETRY_AFTER_SECONDS, null, reason);
  const message = refusalMessage(reason, UNAVAILABLE_RETRY_AFTER_SECONDS);
  if (answersOAuthErrors(path)) return temporarilyUnavailableJson(message);
  if (!path.startsWith('/v1/') && admissionClass !== 'waits' && accept?.includes('text/html')) {
    return busyPage(admissionClass, reason, request);
  }
  const error = new SessError('SESS_UNAVAILABLE', message, { reason });
  return Response.json(
    { error: error.toBody(), ...(requestId ? { requestId } : {}) },
    { status: 503, headers: { 'Retry-After': RETRY_AFTER, 'Cache-Control': 'no-store' } },
  );
}

function busyAnswerOf(c: Context<AppEnv>, admissionClass: AdmissionClass): Response {
  return busyAnswer(admissionClass, c.req.path, c.req.header('accept'), c.get('requestId'), 'busy', c.req.raw);
}

/**
 * Runs a request admitted under `admissionClass`, its place given back when `run` settles (for a
 * route, once its response is ready). A request that changes something starts only after the
 * next poll, and not at all when its client has left by then: it is answered 499 instead.
 * Promise reactions, not an async function: a parked wait would keep the frame for up to 45 s.
 */
export function runAdmitted<T>(
  ticket: AdmissionTicket,
  admissionClass: AdmissionClass,
  incoming: IncomingMessage | undefined,
  run: () => Promise<T>,
): Promise<T | Response> {
  const started: Promise<T | Response> = CHANGES[admissionClass] ? whileClientStays(incoming, run) : run();
  return started.then(
    (result) => {
      ticket.release();
      return result;
    },
    (error: unknown) => {
      ticket.release();
      throw error;
    },
  );
}

/** The app's admission: every request but health is counted under its class, or refused at once. */
export function admitRequests(admission: Admission): MiddlewareHandler<AppEnv> {
  return function admitRequest(c, next) {
    const admissionClass = classifyRequest(c.req.method, c.req.path, (name) => c.req.query(name));
    if (admissionClass === undefined) return next();
    const incoming = nodeIncoming(c.env);
    const ticket = admission.admit(admissionClass, incoming);
    // A Response returned by a middleware becomes the request's response (as linkHostOnly's refusals do).
    if (!ticket) return Promise.resolve(busyAnswerOf(c, admissionClass));
    return runAdmitted(ticket, admissionClass, incoming, next);
  };
}
