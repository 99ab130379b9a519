/*
 * When a delivery is tried again, and when it is given up: 30 s doubling per attempt, at most an
 * hour apart, ±20 % jitter, for a day from when the event was handed out.
 */

/** How long a delivery is tried. */
export const RETRY_WINDOW_MS = 24 * 60 * 60_000;
const BASE_MS = 30_000;
const CAP_MS = 60 * 60_000;

/** The wait after try `attempts`. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

/** When to try again after try `attempts` failed at `at`, or null once the day is over. */
export function nextTryAt(createdAt: Date, attempts: number, at: Date, random?: () => number): Date | null {
  const next = at.getTime() + backoffMs(attempts, random);
  return next <= createdAt.getTime() + RETRY_WINDOW_MS ? new Date(next) : null;
}
