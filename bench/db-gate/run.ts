/**
 * How long the database layer's bounded waits take on PostgreSQL, beside a plain timer of the
 * same length measured in the same run (the anchor: what the event loop adds to any 300 ms timer
 * here). Moved here from packages/service/db/test/database-errors.test.ts, which asserted these figures
 * (a duration is a measurement, not a test; the test now drives the gate's timers itself).
 *
 *   node --import tsx bench/db-gate/run.ts          (BENCH_ROUNDS, default 10; BENCH_DATABASE_URL)
 *
 * One pool of one connection, held by a long statement, then each round:
 * - gate: a statement that finds the pool busy waits poolWaitMs (300) and fails unavailable;
 * - ping: the breaker's ping, past the gate, gives up after pingTimeoutMs (300);
 * - anchor: `setTimeout(300)`.
 * Prints min / median / max of each, in ms.
 */
import { classifyDatabaseError, openDatabase } from '@sess/db';
import { sql } from 'drizzle-orm';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { quantile } from '../support/stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WAIT_MS = 300;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function line(name: string, samples: number[]): string {
  const fixed = (q: number) => quantile(samples, q).toFixed(1);
  return `${name.padEnd(7)} min ${fixed(0)}  median ${fixed(0.5)}  max ${fixed(1)} ms  (${samples.length} rounds)`;
}

const scratch = await createScratchDatabase('bench_db_gate');
try {
  const small = await openDatabase({ url: scratch.url, poolMax: 1, poolWaitMs: WAIT_MS, pingTimeoutMs: WAIT_MS });
  try {
    const holding = Promise.resolve(small.db.execute(sql`select pg_sleep(3600)`)).catch(() => undefined);
    // A moment for the holder to take the one connection (a bench may wait; it is not a test).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const samples = { gate: [] as number[], ping: [] as number[], anchor: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      samples.anchor.push(await timed(() => new Promise((resolve) => setTimeout(resolve, WAIT_MS))));
      samples.gate.push(
        await timed(async () => {
          const error = await small.db.execute(sql`select 1`).then(
            () => undefined,
            (e: unknown) => e,
          );
          const kind = classifyDatabaseError(error);
          if (!('busy' in kind)) throw new Error(`the gate did not refuse as busy: ${JSON.stringify(kind)}`);
        }),
      );
      samples.ping.push(await timed(() => small.ping().catch(() => undefined)));
    }
    console.log(`PostgreSQL bounded waits, poolWaitMs = pingTimeoutMs = ${WAIT_MS}`);
    console.log(line('anchor', samples.anchor));
    console.log(line('gate', samples.gate));
    console.log(line('ping', samples.ping));
    void holding;
  } finally {
    await small.close();
  }
} finally {
  await scratch.drop();
}
