import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A `fetch` that sends every request to `target` (a server's own listening address) while the
 * request keeps its URL's Host, as a reverse proxy in front of several servers does. Node's fetch
 * drops a Host header; node:http keeps it. For clients that take a fetch (the MCP transport).
 */
export function fetchVia(target: string): typeof fetch {
  const to = new URL(target);
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: to.hostname,
          port: to.port,
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers: { ...Object.fromEntries(request.headers), host: url.host },
          signal: request.signal,
        },
        (incoming) => {
          const status = incoming.statusCode ?? 502;
          const empty = status === 204 || status === 304 || request.method === 'HEAD';
          resolve(
            new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
              status,
              headers: toHeaders(incoming.headers),
            }),
          );
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  };
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return headers;
}
