import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';

/** A response as read off its own connection. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request on a connection of its own (no pool, no keep-alive), so a test knows exactly
 * which connection each request holds.
 */
export function requestOnOwnConnection(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(init.body);
  });
}

/** A connection that was opened and is kept idle (it never sends a request). */
export function openIdleConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** A request whose body has only partly arrived: it is in flight at the server until `finish`. */
export interface HeldRequest {
  /** Sends the rest of the body; resolves with the response. */
  finish(): Promise<RawResponse>;
}

/** Parses the one response on a socket: its head, and its body as far as Content-Length says (or to the end). */
function parseResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = headers['content-length'];
  const body = raw.slice(end + 4);
  return { status: Number(statusLine.split(' ')[1]), headers, text: length === undefined ? body : body.slice(0, Number(length)) };
}

/** Whether `raw` holds a whole response: its head, and a body as long as Content-Length says (event streams: one event). */
function isComplete(raw: string): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const head = raw.slice(0, end).toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head)?.[1];
  if (length !== undefined) return Buffer.byteLength(raw.slice(end + 4)) >= Number(length);
  return head.includes('text/event-stream') && raw.slice(end + 4).includes('\n\n');
}

/**
 * Sends a request's head and the first half of its body on a raw connection and holds the
 * rest: deterministic "a request in flight", whatever the route does once its body is in.
 */
export function holdRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<HeldRequest> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Connection: close',
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ].join('\r\n');
      const half = Math.floor(body.length / 2);
      socket.write(`${head}\r\n\r\n${body.slice(0, half)}`);
      let raw = '';
      const response = new Promise<RawResponse>((done, failed) => {
        socket.setEncoding('utf8');
        // Done at a whole response: a keep-alive stream (the MCP SDK's) would hold the socket open.
        socket.on('data', (chunk: string) => {
          raw += chunk;
          if (isComplete(raw)) {
            socket.destroy();
            done(parseResponse(raw));
          }
        });
        socket.on('end', () => done(parseResponse(raw)));
        socket.on('error', failed);
      });
      resolve({
        finish() {
          socket.write(body.slice(half));
          return response;
        },
      });
    });
    socket.once('error', reject);
  });
}

/**
 * Sends a whole request and closes the connection at once, as a client that gave up while its
 * request waited to be read. Resolves once the server has closed its side too.
 */
export function sendAndLeave(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ].join('\r\n');
      // The request and the close leave together, before the server has read either.
      socket.end(`${head}\r\n\r\n${body}`);
    });
    socket.resume();
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}
