import type { IncomingMessage } from 'node:http';
import { type BodyRead, readNodeBody, readWebBody } from '@sess/core';
import type { Deadline } from './deadline.ts';
import type { Incoming } from './edge-request.ts';

function hostOfUrl(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * The pipeline's view of a web-standard request. On @hono/node-server, `info.incoming` is the
 * Node message under it: the body is then read straight from it, and its socket tells when the
 * client goes away. A class, not an object of closures: a parked wait holds its request's.
 */
class RequestIncoming implements Incoming {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly host: string | null;
  readonly clientAddress: string;

  constructor(
    private readonly request: Request,
    private readonly node: IncomingMessage | undefined,
    clientAddress: string | undefined,
  ) {
    this.method = request.method.toUpperCase();
    this.url = request.url;
    this.headers = request.headers;
    // Runtimes build the URL from the Host header; an in-process Request may carry only the URL.
    this.host = request.headers.get('host') ?? hostOfUrl(request.url);
    this.clientAddress = clientAddress ?? 'unknown';
  }

  onClientGone(listener: () => void): () => void {
    // On @hono/node-server the socket tells; touching `request.signal` would build a
    // controller for every request that reaches nothing needing it.
    const socket = this.node?.socket;
    if (socket) {
      socket.once('close', listener);
      return () => socket.off('close', listener);
    }
    const signal = this.request.signal;
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }

  readBody(maxBytes: number, deadline: Deadline): Promise<BodyRead> {
    return this.node ? readNodeBody(this.node, maxBytes, deadline) : readWebBody(this.request.body, maxBytes, deadline);
  }

  sdkRequest(): Request {
    return this.request;
  }
}

export function toIncoming(request: Request, info?: { clientAddress?: string; incoming?: IncomingMessage }): Incoming {
  return new RequestIncoming(request, info?.incoming, info?.clientAddress);
}

export function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/** The same event stream, calling `done` once when it ends, fails or is cancelled by the client. */
export function untilStreamEnds(response: Response, done: () => void): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          done();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
