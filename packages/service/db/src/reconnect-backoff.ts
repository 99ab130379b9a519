/**
 * Seconds before a connection that failed is tried again. postgres.js's own backoff grows with
 * every failure in a row to 20 s, and a query handed to a closed connection waits that long
 * before its connect attempt: during an outage requests hung for 15 s and more, and after it
 * the pool took as long to notice the server was back. Capped at a second (with jitter).
 */
export function reconnectBackoffSeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2);
}
