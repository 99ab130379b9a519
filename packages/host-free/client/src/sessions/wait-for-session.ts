import { MAX_WAIT_MS, type SessionView } from '@sess/contract';
import { SessClientError } from '../errors/sess-client-error.ts';
import type { CallOptions, ClientConfig, SessResult } from '../http/send-request.ts';
import { readSession } from './read-session.ts';

/** Options of `sessions.wait`. */
export interface WaitOptions extends CallOptions {
  /** The revision to wait on; default the current one at the first read (then held). */
  revision?: number | undefined;
  /** How long to wait in all, in milliseconds (default 45 000). Longer than 45 s takes several reads. */
  waitMs?: number | undefined;
  /** An absolute end (a Date or epoch milliseconds); the wait ends at the earlier of this and `waitMs`. */
  deadline?: Date | number | undefined;
  /**
   * Each read's own margin past its `wait_ms`, in milliseconds (default the client's `timeoutMs`):
   * a read that is not answered by then fails with `timeout`.
   */
  timeoutMs?: number | undefined;
}

/** A read that came back still waiting faster than this is not repeated at once (a server that does not hold reads). */
const MIN_POLL_INTERVAL_MS = 1_000;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SessClientError({ kind: 'aborted', operation: 'waitForSession', message: 'The wait was aborted.', sent: true }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Waits for a session's revision to be answered, completed, expired or withdrawn, with reads
 * held by the server (`wait_ms`, at most 45 s each) until the wait's end. Returns the last
 * read; its `state` is still `waiting` when the time ran out (nothing changed on the server:
 * wait again later). The caller's signal ends it with `aborted`.
 */
export async function waitForSession(
  config: ClientConfig,
  sessionId: string,
  options: WaitOptions = {},
): Promise<SessResult<SessionView>> {
  const operation = 'waitForSession';
  const started = Date.now();
  const waitMs = options.waitMs ?? MAX_WAIT_MS;
  if (!Number.isFinite(waitMs) || waitMs < 0) {
    throw new SessClientError({ kind: 'configuration', operation, message: 'waitMs must be a number of milliseconds from 0.' });
  }
  const deadline = options.deadline instanceof Date ? options.deadline.getTime() : options.deadline;
  if (deadline !== undefined && !Number.isFinite(deadline)) {
    throw new SessClientError({ kind: 'configuration', operation, message: 'deadline must be a Date or epoch milliseconds.' });
  }
  const end = Math.min(started + waitMs, deadline ?? Number.POSITIVE_INFINITY);
  const call = { signal: options.signal, timeoutMs: options.timeoutMs };
  let revision = options.revision;
  for (;;) {
    const pollStarted = Date.now();
    const wait_ms = Math.max(0, Math.min(MAX_WAIT_MS, Math.floor(end - pollStarted)));
    const result = await readSession(config, sessionId, { revision, wait_ms }, call);
    if (result.data.state !== 'waiting') return result;
    revision ??= result.data.revision;
    const now = Date.now();
    if (now >= end) return result;
    if (now - pollStarted < MIN_POLL_INTERVAL_MS) {
      if (end - now <= MIN_POLL_INTERVAL_MS) return result;
      await sleep(MIN_POLL_INTERVAL_MS, options.signal);
    }
  }
}
