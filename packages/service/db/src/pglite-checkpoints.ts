import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '@sess/core';
import type { PoolGate } from './pool-gate.ts';

/** WAL written since the last checkpoint beyond which one is taken: what a start after a crash replays at most (plus one interval's writes). */
export const CHECKPOINT_AFTER_WAL_BYTES = 16 * 1024 * 1024;
/** How often the WAL written since the last checkpoint is looked at. */
export const CHECKPOINT_CHECK_MS = 5_000;

/**
 * Checkpoints for the embedded database. PGlite runs PostgreSQL as a single backend with no
 * checkpointer process, so nothing checkpoints by WAL volume or time: every change since the
 * database was opened stays in the WAL to be replayed after a crash (a kill -9 after an hour of
 * writes replayed all of it before /readyz). Every few seconds this looks at how much WAL the
 * last checkpoint left behind and, past the bound, takes one, in line with everything else.
 */
export function startCheckpoints(pg: PGlite, gate: PoolGate, logger?: Logger): { stop(): void } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running || pg.closed) return;
    running = checkpointIfDue(pg, gate, logger)
      .catch((err: unknown) => logger?.warn({ event: 'db.checkpoint_failed', err }, 'embedded database checkpoint failed'))
      .finally(() => (running = undefined));
  }, CHECKPOINT_CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Takes a checkpoint, in line, when the WAL since the last one has reached `afterBytes`; returns the WAL bytes it found. */
export async function checkpointIfDue(
  pg: PGlite,
  gate: PoolGate,
  logger?: Logger,
  afterBytes = CHECKPOINT_AFTER_WAL_BYTES,
): Promise<number> {
  const { rows } = await gate.run('write', () =>
    pg.query<{ since: string }>('select (pg_current_wal_insert_lsn() - (pg_control_checkpoint()).redo_lsn)::text as since'),
  );
  const since = Number(rows[0]?.since ?? 0);
  if (since < afterBytes) return since;
  const started = performance.now();
  await gate.run('write', () => pg.exec('checkpoint'));
  logger?.info(
    { event: 'db.checkpoint', walBytes: since, ms: Math.round(performance.now() - started) },
    'embedded database checkpoint',
  );
  return since;
}
