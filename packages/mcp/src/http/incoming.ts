import type { IncomingMessage } from 'node:http';
import { readNodeBody, readWebBody } from '@sess/core';
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
 * client goes away.
 */
export function toIncoming(request: Request, info?: { clientAddress?: string; incoming?: IncomingMessage }): Incoming {
  return {
    method: request.method.toUpperCase(),
    url: request.url,
    headers: request.headers,
    // Runtimes build the URL from the Host header; an in-process Request may carry only the URL.
    host: request.headers.get('host') ?? hostOfUrl(request.url),
    clientAddress: info?.clientAddress ?? 'unknown',
    onClientGone: (listener) => {
      // On @hono/node-server the socket tells; touching `request.signal` would build a
      // controller for every request that reaches nothing needing it.
      const socket = info?.incoming?.socket;
      if (socket) {
        socket.once('close', listener);
        return () => socket.off('close', listener);
      }
      const signal = request.signal;
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
    readBody: (max, deadline) =>
      info?.incoming ? readNodeBody(info.incoming, max, deadline) : readWebBody(request.body, max, deadline),
    sdkRequest: () => request,
  };
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
