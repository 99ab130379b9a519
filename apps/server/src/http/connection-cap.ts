import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@sess/core';
import type { ConnectionLimits } from '../capacity.ts';

/** How long a connection past the cap may take to send its request before it is closed. */
const PAST_CAP_IDLE_MS = 5_000;

/** Drops a `Connection` header from the headers `writeHead` was given (an object or a flat or nested array). */
function withoutConnectionHeader(headers: unknown): unknown {
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0]))
      return headers.filter((pair) => String(pair[0]).toLowerCase() !== 'connection');
    const kept: unknown[] = [];
    for (let i = 0; i < headers.length; i += 2) {
      if (String(headers[i]).toLowerCase() !== 'connection') kept.push(headers[i], headers[i + 1]);
    }
    return kept;
  }
  if (headers === null || typeof headers !== 'object') return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'connection'));
}

/**
 * Makes `response` close its connection once sent. A `Connection` header the app writes would
 * win over ours (the MCP SDK's event streams say keep-alive), so its `writeHead` drops it.
 */
function closeConnectionAfter(response: ServerResponse): void {
  if (response.headersSent) return;
  response.setHeader('Connection', 'close');
  const writeHead = response.writeHead;
  response.writeHead = function writeHeadClosing(this: ServerResponse, ...args: unknown[]) {
    const last = args.length - 1;
    if (last > 0 && typeof args[last] !== 'string') args[last] = withoutConnectionHeader(args[last]);
    return (writeHead as (...all: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

/** The parked waits of the process, as the cap lets them go. */
export interface ParkedWaits {
  /** Lets the `count` oldest go (they answer `waiting`); returns how many. */
  releaseOldest(count: number): number;
  inProgress(): number;
}

/** What the cap knows of one open connection. */
interface Connection {
  /** Opened while the process was at its cap: only health is served on it, then it closes. */
  pastCap: boolean;
  /** Its latest response, so one still in flight can be told to close the connection. */
  response: ServerResponse | undefined;
}

/**
 * The one owner of the process's open connections (issue 33), kept below the open-file limit so
 * a new connection is never accepted and reset for want of a descriptor. From `soft` on, every
 * connection that opens lets the oldest parked wait go (it answers `waiting` and its client asks
 * again), and responses close their connection instead of keeping it alive, so the headroom up
 * to `hard` stays free for pages and health. A connection past `hard` is answered, not dropped:
 * health as usual, anything else 503 with `Retry-After` (by the admission, which asks
 * `isPastCap`), then closed. Past the files kept in reserve it is closed at once.
 */
export class ConnectionCap {
  readonly limits: ConnectionLimits;
  readonly #logger: Logger;
  /** Every open connection, oldest first. */
  readonly #open = new Map<Socket, Connection>();
  /** Connections past `hard` still closed at once beyond this (descriptors kept for the process). */
  readonly #lastResort: number;
  /** At or above `soft`: waits are let go and keep-alive is off, until the count falls below `#resumeBelow`. */
  #shedding = false;
  readonly #resumeBelow: number;
  #waits: ParkedWaits = { releaseOldest: () => 0, inProgress: () => 0 };
  #released = 0;

  constructor(limits: ConnectionLimits, logger: Logger, reserve: number) {
    this.limits = limits;
    this.#logger = logger;
    this.#resumeBelow = limits.soft - Math.max(1, Math.floor((limits.hard - limits.soft) / 2));
    this.#lastResort = limits.hard + Math.max(1, Math.floor(reserve / 2));
  }

  /** The process's parked waits (the forms runtime's), let go oldest first. */
  releaseWaitsOf(waits: ParkedWaits): void {
    this.#waits = waits;
  }

  /** Parked waits now. */
  get parkedWaits(): number {
    return this.#waits.inProgress();
  }

  /** Open connections now. */
  get size(): number {
    return this.#open.size;
  }

  /** Whether a request came on a connection opened past the cap. */
  isPastCap(incoming: IncomingMessage): boolean {
    return this.#open.get(incoming.socket)?.pastCap === true;
  }

  /** Counts `server`'s connections and sees each request before the app does. */
  attach(server: Server): void {
    server.on('connection', (socket: Socket) => this.#onConnection(socket));
    server.prependListener('request', (request, response) => this.#onRequest(request, response));
  }

  #onConnection(socket: Socket): void {
    const open = this.#open.size + 1;
    const connection: Connection = { pastCap: open > this.limits.hard, response: undefined };
    this.#open.set(socket, connection);
    socket.once('close', () => this.#onClose(socket));
    if (connection.pastCap) {
      if (open > this.#lastResort) {
        socket.destroy();
        return;
      }
      // It gets one answer, soon, and no more: a client holding it idle frees it after a while.
      socket.setTimeout(PAST_CAP_IDLE_MS);
      return;
    }
    if (open < this.limits.soft) return;
    if (!this.#shedding) this.#startShedding(open);
    this.#released += this.#waits.releaseOldest(1);
  }

  #onClose(socket: Socket): void {
    this.#open.delete(socket);
    if (this.#shedding && this.#open.size < this.#resumeBelow) {
      this.#shedding = false;
      this.#logger.info(
        { event: 'server.connections_normal', open: this.#open.size, releasedWaits: this.#released },
        'connections below the cap again',
      );
      this.#released = 0;
    }
  }

  #onRequest(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.#open.get(request.socket);
    if (!connection) return;
    connection.response = response;
    if (connection.pastCap || this.#shedding) closeConnectionAfter(response);
  }

  /** From `soft` on: responses still to be sent close their connection too, not only new ones. */
  #startShedding(open: number): void {
    this.#shedding = true;
    this.#logger.warn(
      { event: 'server.connections_high', open, soft: this.limits.soft, hard: this.limits.hard, parkedWaits: this.parkedWaits },
      'near the connection cap: letting parked waits go, keep-alive off',
    );
    for (const { response } of this.#open.values()) {
      if (response && !response.writableEnded) closeConnectionAfter(response);
    }
  }
}
