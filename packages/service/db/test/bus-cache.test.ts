import { createTestDatabase, listenForMessage, type TestDatabase } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusCache } from '../src/index.ts';

describe('createBusCache', () => {
  let database: TestDatabase;
  let clock = 0;
  const now = () => clock;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  it('keeps an entry until its time is up, by the clock it is given', async () => {
    const cache = createBusCache<string>({ bus: database.bus, channel: 'test_bus_cache_ttl', now, ttlMs: 1000 });
    await cache.listen();
    cache.set('a', 'A');
    clock += 999;
    expect(cache.get('a')).toBe('A');
    clock += 1;
    expect(cache.get('a')).toBeUndefined();
    await cache.close();
  });

  it('drops what a notification names, on the notification, and counts it', async () => {
    const cache = createBusCache<string>({ bus: database.bus, channel: 'test_bus_cache_drop', now, ttlMs: 60_000 });
    await cache.listen();
    expect(cache.listening).toBe(true);
    cache.set('a', 'A');
    cache.set('b', 'B');
    const before = cache.version;
    const heard = await listenForMessage(database.bus, 'test_bus_cache_drop', 'a');
    await database.bus.publish('test_bus_cache_drop', 'a');
    await heard();
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, 'B']);
    // A read that started before the notification is not stored.
    cache.set('a', 'stale', before);
    expect(cache.get('a')).toBeUndefined();
    await cache.close();
    expect(cache.listening).toBe(false);
    expect(cache.get('b')).toBeUndefined();
  });

  it('matches a payload to entries by the rule it is given, and stays within its bound', async () => {
    const cache = createBusCache<{ owner: string }>({
      bus: database.bus,
      channel: 'test_bus_cache_rule',
      now,
      ttlMs: 60_000,
      maxEntries: 2,
      dropsOn: (owner, _key, value) => value.owner === owner,
    });
    await cache.listen();
    cache.set('k1', { owner: 'x' });
    cache.set('k2', { owner: 'y' });
    cache.set('k3', { owner: 'x' });
    expect(cache.get('k1')).toBeUndefined(); // the oldest, dropped for the bound
    const heard = await listenForMessage(database.bus, 'test_bus_cache_rule', 'x');
    await database.bus.publish('test_bus_cache_rule', 'x');
    await heard();
    expect([cache.get('k2'), cache.get('k3')]).toEqual([{ owner: 'y' }, undefined]);
    await cache.close();
  });

  it('without a bus, entries only expire', async () => {
    const cache = createBusCache<string>({ channel: 'test_bus_cache_none', now, ttlMs: 10 });
    await cache.listen();
    expect(cache.listening).toBe(false);
    cache.set('a', 'A');
    expect(cache.get('a')).toBe('A');
    clock += 10;
    expect(cache.get('a')).toBeUndefined();
  });
});
