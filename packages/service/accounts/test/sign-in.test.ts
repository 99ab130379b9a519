import { browserSessions, users } from '@sess/db';
import { createTestUser, inputValue, signInThroughPages, signUpThroughPages, TestBrowser, type TestUser } from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsServer, createClock, startAccounts } from './helpers.ts';

const clock = createClock();
let server: AccountsServer;
let person: TestUser;

beforeAll(async () => {
  server = await startAccounts({ now: clock.now });
  person = await createTestUser(server.database.db, { now: clock.now() });
});
afterAll(() => server.close());

describe('sign-up', () => {
  it('creates the account, a personal workspace, signs in and lands on /account', async () => {
    const browser = await signUpThroughPages(server.url, '  New.Person@Example.COM ', 'a long enough password');
    const [user] = await server.database.db.select().from(users).where(eq(users.email, 'new.person@example.com'));
    expect(user?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const account = await browser.get('/account');
    expect(account.status).toBe(200);
    expect(account.html).toContain('new.person@example.com');
    expect(account.html).toContain('new.person&#39;s workspace');
    expect(account.html).toMatch(/\(owner\)/);
  });

  it('refuses a short password and keeps the e-mail, with aria-invalid and aria-describedby', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.submit('/signup', '/signup', { email: 'short@example.com', password: 'short' });
    expect(result.status).toBe(400);
    expect(result.html).toContain('Use at least 10 characters.');
    expect(result.html).toMatch(
      /<input id="password"[^>]*aria-invalid="true"[^>]*aria-describedby="password-hint password-error"/,
    );
    expect(inputValue(result.html, 'email')).toBe('short@example.com');
    expect(browser.sessionToken()).toBeUndefined();
  });

  it('shows every problem at once, each beside its field, keeping the e-mail and never the password', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.submit('/signup', '/signup', { email: 'not-an-email', password: 'short' });
    expect(result.status).toBe(400);
    expect(result.html).toMatch(/<input id="email"[^>]*aria-invalid="true"[^>]*aria-describedby="email-error"/);
    expect(result.html).toMatch(
      /<input id="password"[^>]*aria-invalid="true"[^>]*aria-describedby="password-hint password-error"/,
    );
    expect(result.html).toMatch(/id="email-error"[^>]*>Enter an email address such as name@example.com.</);
    expect(result.html).toMatch(/id="password-error"[^>]*>Use at least 10 characters.</);
    expect(inputValue(result.html, 'email')).toBe('not-an-email');
    expect(result.html).toMatch(/<input id="password"[^>]*value=""/);
    // Focus goes to the error summary, which links each problem to its field; no field takes it.
    expect(result.html).toMatch(/<div[^>]*tabindex="-1" autofocus=""[^>]*id="signup-error"/);
    expect(result.html).toMatch(/<a href="#email">Enter an email address such as name@example.com.<\/a>/);
    expect(result.html).not.toMatch(/<input id="(email|password)"[^>]*autofocus/);
  });

  it('refuses an address that is not one', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.submit('/signup', '/signup', { email: 'not-an-email', password: 'a long enough password' });
    expect(result.status).toBe(400);
    expect(result.html).toMatch(/<input id="email"[^>]*aria-invalid="true"[^>]*aria-describedby="email-error"/);
  });

  it('refuses a password over 256 characters', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.submit('/signup', '/signup', { email: 'long@example.com', password: 'x'.repeat(257) });
    expect(result.status).toBe(400);
    expect(result.html).toContain('Use at most 256 characters.');
  });

  it('refuses an e-mail that already has an account, whatever its case', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.submit('/signup', '/signup', {
      email: person.email.toUpperCase(),
      password: 'another long password',
    });
    expect(result.status).toBe(409);
    expect(result.html).toContain('An account with this email already exists.');
  });
});

describe('sign-in', () => {
  it('signs in with the right password and answers 303 to /account with a fresh session cookie', async () => {
    const { browser, result } = await signInThroughPages(server.url, person.email, person.password);
    expect(result.status).toBe(303);
    expect(result.location).toBe('/account');
    expect(browser.sessionToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await browser.get('/account')).html).toContain(person.email);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, host-only; not Secure on http', async () => {
    const { browser } = await signInThroughPages(server.url, person.email, person.password);
    const line = browser.setCookies.find((c) => c.startsWith('sess_session=') && !c.startsWith('sess_session=;'))!;
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Max-Age=2592000/);
    expect(line).not.toMatch(/Domain=/i);
    expect(line).not.toMatch(/Secure/);
  });

  it('marks every cookie Secure when PUBLIC_URL is https', async () => {
    const behindTls = await startAccounts({ publicUrl: 'https://sess.example', database: server.database });
    try {
      const { browser, result } = await signInThroughPages(behindTls.url, person.email, person.password);
      expect(result.status).toBe(303);
      const session = browser.setCookies.find((c) => c.startsWith('sess_session='))!;
      expect(session).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      expect(browser.setCookies.every((c) => c.endsWith('; Secure'))).toBe(true);
    } finally {
      await behindTls.close();
    }
  });

  it('stores only the SHA-256 of the session token', async () => {
    const { browser } = await signInThroughPages(server.url, person.email, person.password);
    const token = browser.sessionToken()!;
    const rows = await server.database.db.select().from(browserSessions).where(eq(browserSessions.userId, person.userId));
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);
    const { hashSecret } = await import('@sess/core');
    expect(rows.some((row) => row.tokenHash === hashSecret(token))).toBe(true);
  });

  it('accepts the e-mail in another case and with spaces', async () => {
    const { result } = await signInThroughPages(server.url, ` ${person.email.toUpperCase()} `, person.password);
    expect(result.status).toBe(303);
  });

  it('answers a wrong password with the generic message and no session', async () => {
    const { browser, result } = await signInThroughPages(server.url, person.email, 'not the password at all');
    expect(result.status).toBe(401);
    expect(result.html).toContain('Email or password is wrong.');
    expect(result.html).toMatch(/<input id="password"[^>]*aria-invalid="true"[^>]*aria-describedby="signin-error"/);
    expect(inputValue(result.html, 'email')).toBe(person.email);
    expect(browser.sessionToken()).toBeUndefined();
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const unknown = await signInThroughPages(server.url, 'nobody-here@example.com', 'not the password at all');
    const wrong = await signInThroughPages(server.url, person.email, 'not the password at all');
    expect(unknown.result.status).toBe(wrong.result.status);
    // Tokens and the script's nonce differ per response; everything else is the same page.
    const strip = (html: string, email: string) => html.replace(/(value|data-csrf|nonce)="[^"]*"/g, '').replace(email, '');
    expect(strip(unknown.result.html, 'nobody-here@example.com')).toBe(strip(wrong.result.html, person.email));
  });

  it('asks for a missing e-mail or password without trying', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.submit('/signin', '/signin', { email: '', password: '' });
    expect(result.status).toBe(400);
    expect(result.html).toContain('Enter your email address.');
    expect(result.html).toContain('Enter your password.');
  });

  it('rotates the session on sign-in: the old token stops working', async () => {
    const browser = new TestBrowser(server.url);
    const csrf = inputValue((await browser.get('/signin')).html, '_csrf')!;
    const form = { _csrf: csrf, return_to: '/account', email: person.email, password: person.password };
    expect((await browser.post('/signin', form)).status).toBe(303);
    const first = browser.sessionToken()!;
    // Signing in again from a browser that already has a session (or one planted in it).
    expect((await browser.post('/signin', form)).status).toBe(303);
    const second = browser.sessionToken()!;
    expect(second).not.toBe(first);
    const { hashSecret } = await import('@sess/core');
    expect(
      await server.database.db
        .select()
        .from(browserSessions)
        .where(eq(browserSessions.tokenHash, hashSecret(first))),
    ).toEqual([]);
    const stale = new TestBrowser(server.url);
    stale.cookies.set('sess_session', { value: first, path: '/' });
    const response = await stale.get('/account');
    expect(response.status).toBe(303);
    expect(response.location).toBe('/signin?return_to=%2Faccount');
  });

  it('sends a signed-in browser straight on from /signin', async () => {
    const { browser } = await signInThroughPages(server.url, person.email, person.password);
    const result = await browser.get('/signin?return_to=%2Foauth%2Fauthorize%3Fclient_id%3Dx');
    expect(result.status).toBe(303);
    expect(result.location).toBe('/oauth/authorize?client_id=x');
  });
});

describe('return_to', () => {
  it('brings the person back to a same-origin path with its query', async () => {
    const browser = new TestBrowser(server.url);
    const target = '/oauth/authorize?response_type=code&client_id=abc&state=x%20y';
    const page = await browser.get(`/signin?return_to=${encodeURIComponent(target)}`);
    expect(inputValue(page.html, 'return_to')).toBe(target);
    const result = await browser.submit(`/signin?return_to=${encodeURIComponent(target)}`, '/signin', {
      email: person.email,
      password: person.password,
    });
    expect(result.status).toBe(303);
    expect(result.location).toBe(target);
  });

  it.each([
    '//evil.com',
    '/\\evil.com',
    'https://evil.com',
    'javascript:alert(1)',
    '/\t/evil.com',
    'http:/evil.com',
    '\\\\evil.com',
    ' /account',
  ])('lands on /account for %j', async (attack) => {
    const browser = new TestBrowser(server.url);
    const result = await browser.post('/signin', {
      _csrf: inputValue((await browser.get('/signin')).html, '_csrf')!,
      return_to: attack,
      email: person.email,
      password: person.password,
    });
    expect(result.status).toBe(303);
    expect(result.location).toBe('/account');
  });

  it('never puts an unsafe return_to into the page', async () => {
    const browser = new TestBrowser(server.url);
    const page = await browser.get(`/signin?return_to=${encodeURIComponent('//evil.com')}`);
    expect(inputValue(page.html, 'return_to')).toBe('/account');
  });

  it('applies to sign-up too', async () => {
    const browser = new TestBrowser(server.url);
    const page = await browser.get(`/signup?return_to=${encodeURIComponent('https://evil.com/x')}`);
    const result = await browser.post('/signup', {
      _csrf: inputValue(page.html, '_csrf')!,
      return_to: 'https://evil.com/x',
      email: 'redirected@example.com',
      password: 'a long enough password',
    });
    expect(result.status).toBe(303);
    expect(result.location).toBe('/account');
  });
});

describe('sign-out', () => {
  it('deletes the session row and clears the cookie', async () => {
    const { browser } = await signInThroughPages(server.url, person.email, person.password);
    const token = browser.sessionToken()!;
    const result = await browser.submit('/account', '/signout', {});
    expect(result.status).toBe(303);
    expect(result.location).toBe('/signin?signed_out=1');
    expect(browser.setCookies.at(-1)).toMatch(/^sess_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
    expect(browser.sessionToken()).toBeUndefined();
    const { hashSecret } = await import('@sess/core');
    const rows = await server.database.db
      .select()
      .from(browserSessions)
      .where(eq(browserSessions.tokenHash, hashSecret(token)));
    expect(rows).toEqual([]);
    expect((await browser.get('/signin?signed_out=1')).html).toContain('You are signed out.');
  });

  it('refuses sign-out without the CSRF token (still signed in)', async () => {
    const { browser } = await signInThroughPages(server.url, person.email, person.password);
    const result = await browser.post('/signout', {});
    expect(result.status).toBe(403);
    expect((await browser.get('/account')).status).toBe(200);
  });

  it('refuses sign-out with another session’s CSRF token', async () => {
    const { browser: a } = await signInThroughPages(server.url, person.email, person.password);
    const { browser: b } = await signInThroughPages(server.url, person.email, person.password);
    const tokenOfA = inputValue((await a.get('/account')).html, '_csrf')!;
    const result = await b.post('/signout', { _csrf: tokenOfA });
    expect(result.status).toBe(403);
    expect((await b.get('/account')).status).toBe(200);
  });
});

describe('expiry', () => {
  it('ends a session after 7 idle days, and keeps one that is used', async () => {
    const { browser: idle } = await signInThroughPages(server.url, person.email, person.password);
    const { browser: busy } = await signInThroughPages(server.url, person.email, person.password);
    for (let day = 0; day < 6; day++) {
      clock.advance(24 * 60 * 60 * 1000);
      expect((await busy.get('/account')).status).toBe(200);
    }
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await idle.get('/account')).status).toBe(303);
    expect((await busy.get('/account')).status).toBe(200);
  });

  it('ends a session 30 days after sign-in however often it is used', async () => {
    const { browser } = await signInThroughPages(server.url, person.email, person.password);
    for (let day = 0; day < 29; day++) {
      clock.advance(24 * 60 * 60 * 1000);
      expect((await browser.get('/account')).status).toBe(200);
    }
    clock.advance(24 * 60 * 60 * 1000);
    const result = await browser.get('/account');
    expect(result.status).toBe(303);
    expect(result.location).toBe('/signin?return_to=%2Faccount');
  });
});

describe('CSRF on the sign-in and sign-up forms', () => {
  it('refuses a sign-in post without a token and signs nobody in', async () => {
    const browser = new TestBrowser(server.url);
    await browser.get('/signin');
    const result = await browser.post('/signin', { email: person.email, password: person.password });
    expect(result.status).toBe(403);
    expect(result.html).toContain('This form had expired.');
    expect(browser.sessionToken()).toBeUndefined();
  });

  it('refuses a token minted for another browser (login CSRF)', async () => {
    const attacker = new TestBrowser(server.url);
    const token = inputValue((await attacker.get('/signin')).html, '_csrf')!;
    const victim = new TestBrowser(server.url);
    await victim.get('/signin');
    const result = await victim.post('/signin', { _csrf: token, email: person.email, password: person.password });
    expect(result.status).toBe(403);
    expect(victim.sessionToken()).toBeUndefined();
  });

  it('refuses a sign-up post with a wrong token and creates nothing', async () => {
    const browser = new TestBrowser(server.url);
    await browser.get('/signup');
    const result = await browser.post('/signup', {
      _csrf: 'x'.repeat(43),
      email: 'csrf@example.com',
      password: 'a long enough password',
    });
    expect(result.status).toBe(403);
    expect(await server.database.db.select().from(users).where(eq(users.email, 'csrf@example.com'))).toEqual([]);
  });
});

describe('pages', () => {
  it('carry the strict page headers', async () => {
    const result = await new TestBrowser(server.url).get('/signin');
    expect(result.response.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(result.response.headers.get('x-frame-options')).toBe('DENY');
    expect(result.response.headers.get('cache-control')).toBe('no-store');
    expect(result.html).toMatch(/<label for="email">Email<\/label>/);
    expect(result.html).toMatch(/<label for="password">Password<\/label>/);
    expect(result.html).toMatch(/<button type="submit">Sign in<\/button>/);
  });

  it('escape what people type', async () => {
    const browser = new TestBrowser(server.url);
    const result = await browser.submit('/signin', '/signin', {
      email: '"><script>alert(1)</script>',
      password: 'whatever password',
    });
    expect(result.html).not.toContain('<script>alert(1)</script>');
    expect(result.html).toContain('&lt;script&gt;');
  });

  it('send /account to sign-in when signed out', async () => {
    const result = await new TestBrowser(server.url).get('/account');
    expect(result.status).toBe(303);
    expect(result.location).toBe('/signin?return_to=%2Faccount');
  });
});
