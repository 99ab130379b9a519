import { close, constants, fstat, open, read } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { type OnReadOpts, Socket, type SocketConstructorOpts } from 'node:net';
import { promisify } from 'node:util';

/*
 * One bounded read for everything a person hands Sess (a receipt file, stdin, a JWK Set, a state
 * or environment file): at most `limit + 1` bytes are taken from the source, and the read is
 * refused the moment byte `limit + 1` arrives — without waiting for an end that a device
 * (/dev/zero) or a FIFO whose writer stays open never sends.
 */

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const closeFd = promisify(close);
const readFd = promisify(read);

/** The most one read asks for; a read never asks for more than the bytes still allowed either. */
const CHUNK_BYTES = 64 * 1024;

/** The source was longer than `limit` bytes: it was refused after limit + 1, nothing more read. */
export class InputTooLargeError extends Error {
  override readonly name = 'InputTooLargeError';
  readonly code = 'INPUT_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`The input is over ${describeByteLimit(limit)}.`);
  }
}

/** A limit for a person: `64 KiB`, `1 MiB`, or `100 bytes` when it is not a whole KiB. */
export function describeByteLimit(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * What can be read: a path (a file, a device, a FIFO, /dev/stdin), a file the caller opened and
 * checked (read as a file, from its current position; the caller keeps and closes it), or a
 * stream (stdin; the caller keeps it: it is paused, not destroyed, when the read ends).
 */
export type BoundedSource = string | FileHandle | NodeJS.ReadableStream;

export interface ReadBoundedOptions {
  /** Abandons the read (a FIFO nobody writes to waits for a writer until then). */
  signal?: AbortSignal;
}

/**
 * All of `source`, when it holds at most `limit` bytes. Longer: `InputTooLargeError` once byte
 * `limit + 1` has arrived. A file system error (ENOENT, EISDIR, …) is thrown as it is.
 */
export async function readBounded(source: BoundedSource, limit: number, options: ReadBoundedOptions = {}): Promise<Buffer> {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a byte count, not ${limit}`);
  const { signal } = options;
  signal?.throwIfAborted();
  if (typeof source === 'string') return readPath(source, limit, signal);
  if (isStream(source)) return readStream(source, limit, signal);
  return readChunks((buffer) => source.read(buffer, 0, buffer.length, null).then((r) => r.bytesRead), limit, signal);
}

function isStream(source: FileHandle | NodeJS.ReadableStream): source is NodeJS.ReadableStream {
  return typeof (source as NodeJS.ReadableStream).pipe === 'function';
}

async function readPath(path: string, limit: number, signal: AbortSignal | undefined): Promise<Buffer> {
  // O_NONBLOCK: a FIFO opens at once instead of holding one of libuv's few threads until a
  // writer comes (uncancellable); it is then read through the event loop, which can stop.
  const fd = await openFd(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let pipe = false;
  try {
    pipe = (await fstatFd(fd)).isFIFO();
    if (pipe) return await readPipe(fd, limit, signal);
    return await readChunks((buffer) => readFd(fd, buffer, 0, buffer.length, null).then((r) => r.bytesRead), limit, signal);
  } finally {
    // The pipe's socket closes its own descriptor.
    if (!pipe) await closeFd(fd);
  }
}

/** Reads a file or device in chunks that never reach past byte limit + 1. */
async function readChunks(
  readInto: (buffer: Buffer) => Promise<number>,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    signal?.throwIfAborted();
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit + 1 - total));
    const bytesRead = await readInto(buffer);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > limit) throw new InputTooLargeError(limit);
    chunks.push(buffer.subarray(0, bytesRead));
  }
}

/** Reads a FIFO through the event loop, each read into a buffer no larger than what is still allowed. */
function readPipe(fd: number, limit: number, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const finish = (error: unknown, bytes?: Buffer) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (bytes) resolve(bytes);
      else reject(error);
    };
    const onAbort = () => finish(signal!.reason);
    const onread: OnReadOpts = {
      // At least one byte: libuv may ask once more after the socket is destroyed.
      buffer: () => Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK_BYTES, limit + 1 - total))),
      callback: (bytesRead, buffer) => {
        total += bytesRead;
        if (total > limit) {
          finish(new InputTooLargeError(limit));
          return false;
        }
        chunks.push(buffer.subarray(0, bytesRead));
        return true;
      },
    };
    let socket: Socket;
    try {
      // Node takes `onread` in the constructor too (since 12); @types/node lists it only for connect().
      socket = new Socket({ fd, readable: true, writable: false, onread } as SocketConstructorOpts);
    } catch (error) {
      close(fd, () => {}); // the socket never took the descriptor
      throw error;
    }
    socket.once('end', () => finish(undefined, Buffer.concat(chunks, total)));
    socket.once('error', (error) => finish(error));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort(); // aborted while the FIFO was being opened
  });
}

/** Reads a stream the caller owns: chunks are kept while they fit, and the stream is paused at the end. */
function readStream(stream: NodeJS.ReadableStream, limit: number, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (error: unknown, bytes?: Buffer) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', finish);
      stream.off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      stream.pause();
      if (bytes) resolve(bytes);
      else reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      total += bytes.length;
      if (total > limit) finish(new InputTooLargeError(limit));
      else chunks.push(bytes);
    };
    const onEnd = () => finish(undefined, Buffer.concat(chunks, total));
    const onClose = () => finish(new Error('The stream closed before its end.'));
    const onAbort = () => finish(signal!.reason);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', finish);
    stream.once('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.resume();
  });
}
