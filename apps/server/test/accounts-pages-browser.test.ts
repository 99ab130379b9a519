/*
 * Sign-up, sign-in and the account pages in a real browser (the system Chromium through
 * playwright-core) at a phone size (390×844) and a desktop size. Elements are found by their
 * labels and roles, as a person (or a screen reader) finds them. Any CSP violation or page
 * error fails the test. Screenshots go to test-results/screenshots/. The whole app: the pages'
 * stylesheet and headers are the app's (the sizes checked here are the stylesheet's).
 */
import { createTestUser, createTestWorkspace } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchTestBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openPage(size: keyof typeof SCREEN_SIZES) {
  const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES[size]);
  return { context, page: await context.newPage(), problems };
}

function shot(page: Page, size: string, name: string) {
  return screenshot(page, `accounts-${size}-${name}`);
}

/** Every visible button, text box and button-styled link is at least 44 px tall. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, input:not([type=hidden]), select, a.button')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => el.getBoundingClientRect().height < 44)
      .map((el) => el.outerHTML.slice(0, 80)),
  );
}

/** The label (or name) of the focused element. */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
    return (label ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
  });
}

/** Where focus starts when the page loads, then where Tab takes it, `steps` times. */
async function tabOrder(page: Page, steps: number): Promise<string[]> {
  const names = [await focusedName(page)];
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press('Tab');
    names.push(await focusedName(page));
  }
  return names;
}

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  it('sign-up: labelled fields, an error tied to its field, then the account page', async () => {
    const { context, page, problems } = await openPage(size);
    try {
      await page.goto(`${server.url}/signup`);
      await expect.poll(() => page.getByRole('heading', { name: 'Create your Sess account' }).isVisible()).toBe(true);
      expect(await tabOrder(page, 2)).toEqual(['Email', 'Password', 'Create account']);
      await shot(page, size, 'signup');
      const email = `${size}-${Date.now()}@example.com`;
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      const password = page.getByLabel('Password');
      await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await password.getAttribute('aria-describedby'))!.split(' ');
      const messages = await Promise.all(describedBy.map((id) => page.locator(`#${id}`).textContent()));
      expect(messages).toContain('Use at least 10 characters.');
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      await shot(page, size, 'signup-error');
      await password.fill('a long enough password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Your account' }).isVisible()).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/account');
      expect(await page.getByText(email, { exact: true }).first().isVisible()).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      expect(await smallTargets(page)).toEqual([]);
      await shot(page, size, 'account');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sign-in: a wrong password shows the generic error on both fields; then sign in, keys, sign out', async () => {
    const user = await createTestUser(server.database.db);
    await createTestWorkspace(server.database.db, { userId: user.userId, name: 'Design team', role: 'member' });
    const { context, page, problems } = await openPage(size);
    try {
      await page.goto(`${server.url}/signin`);
      await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Sess' }).isVisible()).toBe(true);
      expect(await tabOrder(page, 2)).toEqual(['Email', 'Password', 'Sign in']);
      expect(await fitsWidth(page)).toBe(true);
      expect(await smallTargets(page)).toEqual([]);
      await shot(page, size, 'signin');
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill('not my password at all');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Email or password is wrong.');
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Password').getAttribute('aria-describedby')).toBe('signin-error');
      await shot(page, size, 'signin-error');
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Your account' }).isVisible()).toBe(true);
      expect(await page.getByText('Design team').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Connected apps' }).getAttribute('href')).toBe('/account/apps');

      await page.getByRole('link', { name: 'API keys' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'API keys' }).isVisible()).toBe(true);
      await page.getByLabel('Key name').fill('phone test');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = page.getByLabel('New API key');
      await expect.poll(() => key.inputValue()).toMatch(/^sess_[A-Za-z0-9_-]{43}$/);
      expect(await fitsWidth(page)).toBe(true);
      expect(await smallTargets(page)).toEqual([]);
      await shot(page, size, 'keys-created');
      await page.goto(`${server.url}/account/keys`);
      expect(await page.getByLabel('New API key').count()).toBe(0);
      await page.getByRole('button', { name: /^Revoke phone test/ }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('The key is revoked.');
      await shot(page, size, 'keys-revoked');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => page.getByText('You are signed out.').isVisible()).toBe(true);
      await page.goto(`${server.url}/account`);
      expect(new URL(page.url()).pathname).toBe('/signin');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
