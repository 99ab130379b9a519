/* Small helpers every benchmark shares. */

/** The `q` quantile (0–1) of `samples` (nearest rank); NaN when there are none. */
export function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Runs `task` over `items` with at most `limit` at a time; results in the order of `items`. */
export async function pool<T, R>(items: T[], limit: number, task: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await task(items[i]!, i);
      }
    }),
  );
  return out;
}
