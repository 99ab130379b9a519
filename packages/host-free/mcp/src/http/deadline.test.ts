import { createManualTimers } from '@sess/testkit/timers';
import { describe, expect, it, vi } from 'vitest';
import { Deadline } from './deadline.ts';

describe('Deadline', () => {
  it('expires once when its time passes: listeners run, the signal aborts', () => {
    vi.useFakeTimers();
    try {
      const deadline = new Deadline(100);
      const listener = vi.fn();
      deadline.onExpire(listener);
      const signal = deadline.signal;
      vi.advanceTimersByTime(99);
      expect(deadline.expired).toBe(false);
      vi.advanceTimersByTime(1);
      expect(deadline.expired).toBe(true);
      expect(listener).toHaveBeenCalledTimes(1);
      expect(signal.aborted).toBe(true);
      deadline.expire();
      expect(listener).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a cleared deadline never fires; an unsubscribed listener is not called', () => {
    vi.useFakeTimers();
    try {
      const deadline = new Deadline(100);
      const listener = vi.fn();
      deadline.onExpire(listener)();
      deadline.clear();
      vi.advanceTimersByTime(1000);
      expect(deadline.expired).toBe(false);
      expect(listener).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('ending it early (the client left) aborts a signal made later too', () => {
    const deadline = new Deadline(60_000);
    deadline.expire();
    expect(deadline.signal.aborted).toBe(true);
  });

  it('runs on the timers it is given: ends when they fire, and clears them when the response is complete', () => {
    const timers = createManualTimers();
    const fired = new Deadline(100, timers);
    expect(timers.pending(100)).toBe(1);
    timers.fire();
    expect(fired.expired).toBe(true);
    expect(fired.signal.aborted).toBe(true);
    const completed = new Deadline(100, timers);
    expect(timers.pending(100)).toBe(1);
    completed.clear();
    expect(timers.pending()).toBe(0);
    expect(completed.expired).toBe(false);
  });
});
