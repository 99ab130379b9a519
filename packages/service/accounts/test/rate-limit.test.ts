import { createTestUser, inputValue, TestBrowser, type TestUser } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsServer, createClock, errorLog, startAccounts } from './helpers.ts';

/** Posts the sign-in form `times` times from one browser; returns the statuses. */
async function attempts(browser: TestBrowser, email: string, password: string, times: number, headers?: Record<string, string>) {
  const csrf = inputValue((await browser.get('/signin', headers)).html, '_csrf')!;
  const statuses: number[] = [];
  let last: Awaited<ReturnType<TestBrowser['post']>> | undefined;
  for (let i = 0; i < times; i++) {
    last = await browser.post('/signin', { _csrf: csrf, return_to: '/account', email, password }, headers);
    statuses.push(last.status);
    if (last.status === 500) console.error(errorLog.at(-1));
  }
  return { statuses, last: last! };
}

describe('per account (counted in the database, across replicas)', () => {
  const clock = createClock();
  let one: AccountsServer;
  let two: AccountsServer;
  let person: TestUser;
  beforeAll(async () => {
    one = await startAccounts({ now: clock.now, limits: { signInPerAccount: 3, signInPerIp: 1000 } });
    // A second "replica" on the same database, with its own process-local limiters.
    two = await startAccounts({
      now: clock.now,
      database: one.database,
      limits: { signInPerAccount: 3, signInPerIp: 1000 },
    });
    person = await createTestUser(one.database.db, { now: clock.now() });
  });
  afterAll(async () => {
    await two.close();
    await one.close();
  });

  it('refuses the 4th attempt in 15 minutes with 429 and Retry-After, even with the right password', async () => {
    const a = await attempts(new TestBrowser(one.url), person.email, 'wrong password 1', 2);
    expect(a.statuses).toEqual([401, 401]);
    const b = await attempts(new TestBrowser(two.url), person.email, 'wrong password 2', 1);
    expect(b.statuses).toEqual([401]);
    const blocked = await attempts(new TestBrowser(two.url), person.email, person.password, 1);
    expect(blocked.statuses).toEqual([429]);
    expect(Number(blocked.last.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.last.response.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(blocked.last.html).toContain('Too many sign-in attempts');
    expect(blocked.last.html).toMatch(/wait \d+ minutes? and try again/);
    const alsoBlocked = await attempts(new TestBrowser(one.url), person.email, person.password, 1);
    expect(alsoBlocked.statuses).toEqual([429]);
  });

  it('lets the person in again once the window has passed, and a success resets the count', async () => {
    clock.advance(15 * 60 * 1000 + 1000);
    const ok = await attempts(new TestBrowser(one.url), person.email, person.password, 1);
    expect(ok.statuses).toEqual([303]);
    const after = await attempts(new TestBrowser(two.url), person.email, 'wrong password 3', 3);
    expect(after.statuses).toEqual([401, 401, 401]);
    clock.advance(15 * 60 * 1000 + 1000);
  });

  it('limits unknown addresses the same way (the limit reveals nothing)', async () => {
    const r = await attempts(new TestBrowser(one.url), 'nobody@example.com', 'wrong password 4', 4);
    expect(r.statuses).toEqual([401, 401, 401, 429]);
  });

  it('counts the address in its normalised form', async () => {
    const r1 = await attempts(new TestBrowser(one.url), 'Case@Example.com', 'wrong password 5', 2);
    const r2 = await attempts(new TestBrowser(one.url), ' case@example.COM', 'wrong password 5', 2);
    expect([...r1.statuses, ...r2.statuses]).toEqual([401, 401, 401, 429]);
  });
});

describe('per IP (in process)', () => {
  let server: AccountsServer;
  let person: TestUser;
  beforeAll(async () => {
    server = await startAccounts({
      limits: { signInPerIp: 3, signInPerAccount: 1000, signUpPerIp: 2 },
      // The test plays several addresses through one loopback socket.
      clientIp: (c) => c.req.header('x-test-ip') ?? 'unknown',
    });
    person = await createTestUser(server.database.db);
  });
  afterAll(() => server.close());

  it('refuses the 4th sign-in from one address whatever the account, and not another address', async () => {
    const ip = { 'x-test-ip': '203.0.113.7' };
    const browser = new TestBrowser(server.url);
    const csrf = inputValue((await browser.get('/signin')).html, '_csrf')!;
    const statuses: number[] = [];
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', person.email]) {
      const r = await browser.post(
        '/signin',
        { _csrf: csrf, email, password: email === person.email ? person.password : 'wrong password x' },
        ip,
      );
      statuses.push(r.status);
      if (r.status === 429) expect(r.response.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const other = await attempts(new TestBrowser(server.url), person.email, person.password, 1, { 'x-test-ip': '198.51.100.9' });
    expect(other.statuses).toEqual([303]);
  });

  it('limits sign-ups per address', async () => {
    const ip = { 'x-test-ip': '192.0.2.44' };
    const statuses: number[] = [];
    for (const n of [1, 2, 3]) {
      const browser = new TestBrowser(server.url);
      const csrf = inputValue((await browser.get('/signup')).html, '_csrf')!;
      statuses.push(
        (await browser.post('/signup', { _csrf: csrf, email: `ip${n}@example.com`, password: 'a long enough password' }, ip))
          .status,
      );
    }
    expect(statuses).toEqual([303, 303, 429]);
  });
});
