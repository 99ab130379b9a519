import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A document server on 127.0.0.1 whose answers the test scripts, counting requests per path. */
export interface DocumentServer {
  url: string;
  hits: Map<string, number>;
  route(path: string, handler: (request: IncomingMessage, response: ServerResponse) => void): void;
  json(path: string, body: unknown, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>();
  const hits = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    open.add(response);
    response.on('close', () => open.delete(response));
    const route = routes.get(path);
    if (!route) {
      response.writeHead(404).end();
      return;
    }
    route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    route: (path, handler) => routes.set(path, handler),
    json(path, body, headers = {}) {
      routes.set(path, (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', ...headers });
        response.end(JSON.stringify(body));
      });
    },
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
