import { describe, expect, it } from 'vitest';
import { createFailureCache } from './failure-cache.ts';

describe('failure cache', () => {
  it('answers with the remembered failure until the TTL has passed (injected clock)', () => {
    let t = 0;
    const cache = createFailureCache({ ttlMs: 60_000, maxEntries: 10, now: () => t });
    expect(cache.get('https://a.example/c')).toBeUndefined();
    cache.remember('https://a.example/c', 'bad_status: answered 500');
    t = 59_999;
    expect(cache.get('https://a.example/c')).toBe('bad_status: answered 500');
    t = 60_000;
    expect(cache.get('https://a.example/c')).toBeUndefined();
  });

  it('remembers per exact key: another URL on the same host is not affected', () => {
    const cache = createFailureCache({ ttlMs: 60_000, maxEntries: 10, now: () => 0 });
    cache.remember('https://a.example/one', 'timeout');
    expect(cache.get('https://a.example/two')).toBeUndefined();
  });

  it('stays within maxEntries under a flood of keys, forgetting the oldest first', () => {
    let t = 0;
    const cache = createFailureCache({ ttlMs: 60_000, maxEntries: 3, now: () => t });
    for (let i = 0; i < 1000; i++) {
      t = i;
      cache.remember(`https://flood.example/${i}`, 'timeout');
    }
    expect(cache.get('https://flood.example/996')).toBeUndefined();
    expect(['997', '998', '999'].map((i) => cache.get(`https://flood.example/${i}`))).toEqual(['timeout', 'timeout', 'timeout']);
  });

  it('remembering a key again restarts its TTL', () => {
    let t = 0;
    const cache = createFailureCache({ ttlMs: 60_000, maxEntries: 10, now: () => t });
    cache.remember('k', 'first');
    t = 50_000;
    cache.remember('k', 'second');
    t = 100_000;
    expect(cache.get('k')).toBe('second');
  });
});
