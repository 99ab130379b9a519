import { MAX_WAIT_MS } from '../model/lifetimes.ts';
import type { LinkView } from '../model/views.ts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import { waitForChange } from '../waits/waiter-hub.ts';
import { openLink } from './open-link.ts';

/** What the page is showing, and how long it may wait for something else. */
export interface WaitLinkInput {
  /** The revision the page shows. */
  revision: number;
  /** The state the page shows; defaults to the state read when the wait starts. */
  state?: LinkView['state'] | undefined;
  /** Longest wait in milliseconds, at most 45,000 (larger values are clamped; 0 reads once). */
  waitMs: number;
  /** Aborts the wait at once (pass the request's signal: a closed tab frees its waiter). */
  signal?: AbortSignal | undefined;
}

/** When a view changes by the clock alone: its deadline, then (extendable links) its horizon. */
function nextChange(view: LinkView, now: Date): Date | null {
  const t = now.getTime();
  const deadline = new Date(view.deadlineAt);
  if (t < deadline.getTime()) return deadline;
  if (view.kind === 'interaction' && view.horizonAt) {
    const horizon = new Date(view.horizonAt);
    if (t < horizon.getTime()) return horizon;
  }
  return null;
}

/**
 * Long-poll for the answer page: returns the link's view as soon as its state or revision
 * differs from what the page shows (an agent publish, complete or withdraw, an extension, an
 * answer from another tab, a lapse or expiry), or after `waitMs` with the unchanged view. A
 * parked wait holds no database connection: it sits in the runtime's waiter map and is woken
 * by the notify bus, from any replica.
 * @throws SessError `NOT_FOUND` for an unknown token.
 */
export async function waitLink(runtime: FormsRuntime, token: string, input: WaitLinkInput): Promise<LinkView> {
  const first = await openLink(runtime, token);
  const shown = input.state ?? first.state;
  const changed = (view: LinkView) => view.revision !== input.revision || view.state !== shown;
  const waitMs = Math.max(0, Math.min(MAX_WAIT_MS, Math.floor(input.waitMs)));
  if (changed(first) || waitMs === 0 || input.signal?.aborted) return first;
  await runtime.start();
  return waitForChange(runtime.waiters, {
    sessionId: first.sessionId,
    read: () => openLink(runtime, token),
    isDone: changed,
    nextTimeChange: (view) => nextChange(view, runtime.now()),
    waitMs,
    signal: input.signal,
    now: runtime.now,
  });
}
