import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { createSweeper } from './sweeper.ts';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, lines };
}

describe('createSweeper', () => {
  it('sweeps at once, then not again until everyMs has passed', async () => {
    let t = 1_000_000;
    const runs: number[] = [];
    const { logger } = capture();
    const sweepIfDue = createSweeper({
      name: 'test',
      logger,
      now: () => new Date(t),
      everyMs: 60_000,
      sweep: async (at) => {
        runs.push(at.getTime());
        return { rows: 0 };
      },
    });
    await sweepIfDue();
    t += 59_999;
    expect(sweepIfDue()).toBeUndefined();
    t += 1;
    await sweepIfDue();
    expect(runs).toEqual([1_000_000, 1_060_000]);
  });

  it('never starts a second sweep while one runs, however late', async () => {
    let t = 0;
    let finish!: () => void;
    let runs = 0;
    const sweepIfDue = createSweeper({
      name: 'test',
      logger: capture().logger,
      now: () => new Date(t),
      everyMs: 10,
      sweep: () => {
        runs++;
        return new Promise((resolve) => (finish = () => resolve({})));
      },
    });
    const running = sweepIfDue();
    t = 1_000;
    expect(sweepIfDue()).toBeUndefined();
    finish();
    await running;
    expect(runs).toBe(1);
    const second = sweepIfDue();
    expect(second).toBeInstanceOf(Promise);
    finish();
    await second;
    expect(runs).toBe(2);
  });

  it('logs what went (not when nothing did) and swallows a failure into a warning', async () => {
    let t = 0;
    const { logger, lines } = capture();
    let result: () => Promise<Record<string, number>> = async () => ({ rows: 0 });
    const sweepIfDue = createSweeper({ name: 'things', logger, now: () => new Date(t), everyMs: 1, sweep: () => result() });
    await sweepIfDue();
    expect(lines).toEqual([]);
    t += 1;
    result = async () => ({ rows: 3, others: 0 });
    await sweepIfDue();
    expect(lines.at(-1)).toMatchObject({ event: 'things.swept', rows: 3, others: 0 });
    t += 1;
    result = async () => {
      throw new Error('database unreachable');
    };
    await expect(sweepIfDue()).resolves.toBeUndefined();
    expect(lines.at(-1)).toMatchObject({ event: 'things.sweep_failed', level: 'warn' });
    // A failed sweep does not stop the next one.
    t += 1;
    result = async () => ({ rows: 1 });
    await sweepIfDue();
    expect(lines.at(-1)).toMatchObject({ event: 'things.swept', rows: 1 });
  });
});
