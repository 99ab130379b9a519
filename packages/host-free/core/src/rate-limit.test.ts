import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limit.ts';

describe('rate limiter', () => {
  it('allows `limit` hits per window per key, then says how long to wait', () => {
    let t = 0;
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now: () => t });
    expect(limiter.hit('a')).toEqual({ ok: true, remaining: 1 });
    expect(limiter.hit('a')).toEqual({ ok: true, remaining: 0 });
    expect(limiter.hit('a')).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(limiter.hit('b').ok).toBe(true);
    t = 59_500;
    expect(limiter.hit('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    t = 60_000;
    expect(limiter.hit('a').ok).toBe(true);
    limiter.reset('a');
    expect(limiter.hit('a')).toEqual({ ok: true, remaining: 1 });
  });

  it('keeps memory bounded under a flood of distinct keys', () => {
    let t = 0;
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, now: () => t, maxKeys: 10 });
    for (let i = 0; i < 10; i++) limiter.hit(`k${i}`);
    t = 2000;
    for (let i = 10; i < 1000; i++) expect(limiter.hit(`k${i}`).ok).toBe(true);
  });
});
