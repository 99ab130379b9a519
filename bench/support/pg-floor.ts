/* The floor under any PostgreSQL-woken wait: NOTIFY on one connection to the LISTEN callback on
 * another, one at a time (the product's wake goes answer → commit → NOTIFY → LISTEN → response, so
 * it cannot beat this on the same machine). */
import postgres from 'postgres';

/** `samples` NOTIFY→LISTEN latencies in ms (from issuing pg_notify to the listener's callback). */
export async function notifyListenFloor(databaseUrl: string, samples: number): Promise<number[]> {
  const listener = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const notifier = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  let arrived: ((at: number) => void) | undefined;
  await listener.listen('bench_floor', () => arrived?.(performance.now()));
  const latencies: number[] = [];
  try {
    await notifier`select 1`; // connected before the first sample
    for (let i = 0; i < samples; i++) {
      const received = new Promise<number>((resolve) => (arrived = resolve));
      const sent = performance.now();
      await notifier`select pg_notify('bench_floor', ${String(i)})`;
      latencies.push((await received) - sent);
    }
  } finally {
    await listener.end({ timeout: 2 });
    await notifier.end({ timeout: 2 });
  }
  return latencies;
}
