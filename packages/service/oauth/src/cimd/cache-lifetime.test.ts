import { describe, expect, it } from 'vitest';
import { cacheLifetimeSeconds, DEFAULT_DOCUMENT_TTL_S, MAX_DOCUMENT_TTL_S } from './cache-lifetime.ts';

describe('cacheLifetimeSeconds', () => {
  it.each([
    [undefined, DEFAULT_DOCUMENT_TTL_S],
    ['public, max-age=300', 300],
    ['max-age=0', 0],
    ['no-store', 0],
    ['no-cache, max-age=600', 0],
    ['s-maxage=60, max-age=600', 60],
    ['max-age=99999999', MAX_DOCUMENT_TTL_S],
    ['max-age=abc', DEFAULT_DOCUMENT_TTL_S],
    ['private, max-age="120"', 120],
  ])('%o → %i s', (header, seconds) => {
    expect(cacheLifetimeSeconds(header)).toBe(seconds);
  });
});
