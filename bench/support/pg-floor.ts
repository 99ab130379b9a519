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

/**
 * `samples` latencies in ms of the database steps a wake makes, with no application work between
 * them: from a commit that updates a row and notifies (the answer) to the end of two primary-key
 * reads of that row and a primary-key update commit on another connection (the waiting read, the
 * confirming read and the sealed handle update), one at a time with a 3 ms gap, as the wake bench
 * answers. On a scratch table of its own (created and dropped), not the product's tables: it is
 * the floor of the wake's round trips on this machine, not a copy of its queries.
 */
export async function wakeStepsFloor(databaseUrl: string, samples: number): Promise<number[]> {
  const answerer = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const waker = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const rows = 3000;
  let arrived: (() => void) | undefined;
  const latencies: number[] = [];
  try {
    await answerer`create table bench_wake_floor (id int primary key, answer text, sealed text)`;
    await answerer`insert into bench_wake_floor select g, null, null from generate_series(1, ${rows}) g`;
    await waker.listen('bench_wake_floor', () => arrived?.());
    for (let i = 0; i < samples; i++) {
      const id = 1 + (i % rows);
      const woken = new Promise<void>((resolve) => (arrived = resolve));
      await answerer.begin(async (tx) => {
        await tx`update bench_wake_floor set answer = ${`answer ${i}`} where id = ${id}`;
        await tx`select pg_notify('bench_wake_floor', ${String(id)})`;
      });
      const committed = performance.now();
      await woken;
      await waker`select * from bench_wake_floor where id = ${id}`;
      await waker`select * from bench_wake_floor where id = ${id}`;
      await waker`update bench_wake_floor set sealed = ${`sealed ${i}`} where id = ${id}`;
      latencies.push(performance.now() - committed);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
  } finally {
    await answerer`drop table if exists bench_wake_floor`.catch(() => undefined);
    await waker.end({ timeout: 2 });
    await answerer.end({ timeout: 2 });
  }
  return latencies;
}
