import type { IncomingMessage } from 'node:http';

/*
 * Bounded request-body reads, one implementation for every route that takes a body (/v1, /mcp):
 * stop taking bytes the moment the limit is passed or the request's deadline fires.
 */

/** What a body read needs of the request's deadline. */
export interface Expiry {
  readonly expired: boolean;
  /** Calls `listener` when the deadline passes; returns the unsubscribe. */
  onExpire(listener: () => void): () => void;
}

/** A deadline that never passes, for callers whose server already bounds the request's time. */
export const NEVER_EXPIRES: Expiry = { expired: false, onExpire: () => () => {} };

/** How a bounded body read that got no body ended. */
export type BodyReadFailure =
  | { kind: 'too_large' }
  /** The request deadline passed before the whole body arrived. */
  | { kind: 'timeout' }
  /** The client went away (or the stream broke) mid-body; `cause` is what the stream raised, if anything. */
  | { kind: 'aborted'; cause?: unknown };

/** What a bounded body read came to. */
export type BodyRead = { kind: 'ok'; text: string } | BodyReadFailure;

/** What a bounded read of a body's bytes came to. */
export type BodyBytesRead = { kind: 'ok'; bytes: Uint8Array } | BodyReadFailure;

const decoder = new TextDecoder();

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

function join(chunks: Uint8Array[], total: number): string {
  return decoder.decode(concat(chunks, total));
}

/**
 * Reads a web body once, up to `maxBytes`, stopping the moment the limit is passed or the
 * deadline fires (the stream is cancelled, so no more bytes are taken). The text is UTF-8 (a
 * leading BOM dropped, a broken sequence replaced).
 */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  deadline: Expiry,
): Promise<BodyRead> {
  const read = await readWebBytes(body, maxBytes, deadline);
  return read.kind === 'ok' ? { kind: 'ok', text: decoder.decode(read.bytes) } : read;
}

/** The same bounded read, for a caller that decodes the bytes itself. */
export async function readWebBytes(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  deadline: Expiry,
): Promise<BodyBytesRead> {
  if (!body) return { kind: 'ok', bytes: new Uint8Array(0) };
  if (deadline.expired) return { kind: 'timeout' };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let stop: (() => void) | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    stop = deadline.onExpire(() => resolve('timeout'));
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        reader.cancel().catch(() => {});
        return { kind: 'timeout' };
      }
      if (next.done) break;
      total += next.value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        return { kind: 'too_large' };
      }
      chunks.push(next.value);
    }
  } catch (cause) {
    return deadline.expired ? { kind: 'timeout' } : { kind: 'aborted', cause };
  } finally {
    stop?.();
  }
  return { kind: 'ok', bytes: concat(chunks, total) };
}

/** The same bounded read straight from a Node request stream. */
export function readNodeBody(req: IncomingMessage, maxBytes: number, deadline: Expiry): Promise<BodyRead> {
  return new Promise((resolve) => {
    if (deadline.expired) return resolve({ kind: 'timeout' });
    let stop: (() => void) | undefined;
    const chunks: Uint8Array[] = [];
    let total = 0;
    const finish = (result: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      stop?.();
      if (result.kind !== 'ok') req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) return finish({ kind: 'too_large' });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'ok', text: join(chunks, total) });
    const onError = (cause: unknown) => finish({ kind: 'aborted', cause });
    const onClose = () => {
      if (!req.complete) finish({ kind: 'aborted' });
    };
    const onTimeout = () => finish({ kind: 'timeout' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    stop = deadline.onExpire(onTimeout);
  });
}
