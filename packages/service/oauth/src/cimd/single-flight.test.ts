import { describe, expect, it } from 'vitest';
import { createSingleFlight } from './single-flight.ts';

/** A task the test settles by hand, counting how often it was started. */
function deferredTask<T>() {
  let starts = 0;
  let settle: { resolve(value: T): void; reject(error: Error): void } | undefined;
  const task = () => {
    starts++;
    return new Promise<T>((resolve, reject) => {
      settle = { resolve, reject };
    });
  };
  return { task, starts: () => starts, settle: () => settle! };
}

describe('single flight', () => {
  it('callers of a key already in flight share its one task and its result', async () => {
    const flights = createSingleFlight<string>();
    const { task, starts, settle } = deferredTask<string>();
    const calls = [flights.run('a', task), flights.run('a', task), flights.run('a', task)];
    expect(flights.pending('a')).toBe(calls[0]);
    settle().resolve('done');
    expect(await Promise.all(calls)).toEqual(['done', 'done', 'done']);
    expect(starts()).toBe(1);
  });

  it('different keys run side by side', async () => {
    const flights = createSingleFlight<string>();
    const { task, starts } = deferredTask<string>();
    void flights.run('a', task);
    void flights.run('b', task);
    expect(starts()).toBe(2);
  });

  it('forgets a key once its task settles, success or failure, so the next call starts again', async () => {
    const flights = createSingleFlight<string>();
    const first = deferredTask<string>();
    const failed = flights.run('a', first.task);
    first.settle().reject(new Error('boom'));
    await expect(failed).rejects.toThrow('boom');
    expect(flights.pending('a')).toBeUndefined();
    const second = deferredTask<string>();
    const again = flights.run('a', second.task);
    second.settle().resolve('ok');
    expect(await again).toBe('ok');
    expect(second.starts()).toBe(1);
  });
});
