import { createECDH, randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { recordSecret } from './log-audit/capture.ts';
import type { TestPushSubscription } from './push-service.ts';

/*
 * Services on loopback that take a connection and then never answer, as a push service or an
 * SMTP server can (overloaded, or run by someone who wants Sess's worker to wait): for tests and
 * benches of how the notification worker keeps everyone else's notifications moving. Each counts
 * what it was sent, so a test can say how many sends the worker let wait on it.
 */

/** Counts, and resolves the waits for a count. */
function counter() {
  let count = 0;
  const waiters = new Set<() => void>();
  return {
    get: () => count,
    add() {
      count += 1;
      for (const waiter of waiters) waiter();
    },
    waitFor(target: number, timeoutMs: number, what: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (count < target) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${count} of ${target} ${what} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

export interface HangingPushService {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** A subscription on it, with keys as a browser makes them (nothing sent to it is ever read). */
  subscribe(): TestPushSubscription;
  /** Requests taken so far, held or answered. */
  requests(): number;
  /** Requests still held open, unanswered. */
  held(): number;
  /** Resolves once it has taken `count` requests. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** From now on it answers: every held request, and every later one at once, gets `status`. */
  answer(status: number): void;
  close(): Promise<void>;
}

/** A push service that takes every request and holds it open, without a word, until `answer`. */
export async function startHangingPushService(): Promise<HangingPushService> {
  const taken = counter();
  const held = new Set<ServerResponse>();
  let status: number | null = null;
  const server = createHttpServer((request, response) => {
    request.resume();
    taken.add();
    if (status !== null) return void response.writeHead(status).end();
    held.add(response);
    response.on('close', () => held.delete(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const subscription = {
        endpoint: `${url}/push/${randomBytes(12).toString('base64url')}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
      };
      recordSecret(subscription.endpoint, 'credential');
      return subscription;
    },
    requests: taken.get,
    held: () => held.size,
    waitForRequests: (count, timeoutMs = 5_000) => taken.waitFor(count, timeoutMs, 'requests'),
    answer(answered) {
      status = answered;
      for (const response of held) response.writeHead(answered).end();
      held.clear();
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

export interface StalledSmtpServer {
  /** `smtp://127.0.0.1:<port>`. */
  url: string;
  /** Connections taken so far. */
  connections(): number;
  /** Connections still open. */
  open(): number;
  /** Resolves once it has taken `count` connections. */
  waitForConnections(count: number, timeoutMs?: number): Promise<void>;
  /** From now on it hangs up: every open connection, and every later one at once. */
  hangUp(): void;
  close(): Promise<void>;
}

/** An SMTP server that takes the connection and never greets (RFC 5321 §3.1: the client waits for the 220). */
export async function startStalledSmtpServer(): Promise<StalledSmtpServer> {
  const taken = counter();
  const open = new Set<Socket>();
  let hungUp = false;
  const server = createTcpServer((socket) => {
    taken.add();
    if (hungUp) return void socket.destroy();
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: taken.get,
    open: () => open.size,
    waitForConnections: (count, timeoutMs = 5_000) => taken.waitFor(count, timeoutMs, 'connections'),
    hangUp() {
      hungUp = true;
      for (const socket of open) socket.destroy();
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
