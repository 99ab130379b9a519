/*
 * A loopback HTTP proxy in front of the real app, for the failures a client must classify: it
 * passes requests on, holds them unanswered, or lets the app answer and then drops the
 * connection before the answer reaches the client (the write happened; its outcome is lost).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode = 'pass' | 'hold' | 'drop-answer';

export interface FaultProxy {
  url: string;
  /** What the next requests meet; change it between calls. */
  mode: FaultMode;
  /** Requests seen, in order (method and path). */
  seen: string[];
  /** Resolves when the next request reaches the proxy. */
  nextRequest(): Promise<void>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts the proxy on 127.0.0.1:0 in front of `upstream` (an origin). */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  let waiters: Array<() => void> = [];
  const proxy: FaultProxy = {
    url: '',
    mode: 'pass',
    seen: [],
    nextRequest: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => request.socket.destroy());
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const mode = proxy.mode;
    proxy.seen.push(`${request.method} ${request.url}`);
    const body = await readBody(request);
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
    if (mode === 'hold') return; // never answered; the client's deadline or signal ends it
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
    }
    const answer = await fetch(new URL(request.url!, upstream), {
      method: request.method,
      headers,
      body: body.length > 0 ? new Uint8Array(body) : undefined,
      redirect: 'manual',
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    if (mode === 'drop-answer') {
      // The app has answered, so the write is done; the client never hears of it.
      request.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
    });
    response.writeHead(answer.status, out);
    response.end(bytes);
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** A tiny server that answers every request with `answer` (a server that is not Sess, or a broken one). */
export async function startFixedServer(answer: {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}): Promise<{ url: string; hits: number; close(): Promise<void> }> {
  const state = { url: '', hits: 0, close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    state.hits += 1;
    request.resume();
    response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    response.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
