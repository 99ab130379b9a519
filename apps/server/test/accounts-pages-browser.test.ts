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

/** The new key's field shows the whole key: nothing scrolled away inside it, nothing cut off beside it. */
function wholeKeyInView(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const field = document.getElementById('new-key') as HTMLTextAreaElement;
    const box = field.getBoundingClientRect();
    return (
      field.scrollHeight <= field.clientHeight + 1 &&
      field.scrollWidth <= field.clientWidth + 1 &&
      box.left >= 0 &&
      box.right <= document.documentElement.clientWidth
    );
  });
}

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  it('sign-up: labelled fields, an error tied to its field, then the account page', async () => {
    const { context, page, problems } = await openPage(size);
    try {
      await page.goto(`${server.url}/signup`);
      await expect.poll(() => page.getByRole('heading', { name: 'Create your Sess account' }).isVisible()).toBe(true);
      expect(await tabOrder(page, 2)).toEqual(['Email', 'Password', 'Create account']);
      await shot(page, size, 'signup');
      // Both fields wrong: both problems at once, each tied to its field; the e-mail kept, never the password.
      await page.getByLabel('Email').fill('not an address');
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect.poll(() => page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      const errorsOf = async (label: string) => {
        const ids = ((await page.getByLabel(label).getAttribute('aria-describedby')) ?? '').split(' ');
        return Promise.all(ids.map((id) => page.locator(`#${id}`).textContent()));
      };
      expect(await errorsOf('Email')).toContain('Enter an email address such as name@example.com.');
      expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
      expect(await errorsOf('Password')).toContain('Use at least 10 characters.');
      expect(await page.getByLabel('Email').inputValue()).toBe('not an address');
      expect(await page.getByLabel('Password').inputValue()).toBe('');
      expect(await fitsWidth(page)).toBe(true);
      await shot(page, size, 'signup-errors');
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
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Email or password is wrong.');
      expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Password').getAttribute('aria-describedby')).toBe('signin-error');
      await shot(page, size, 'signin-error');
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Your account' }).isVisible()).toBe(true);
      expect(await page.getByText('Design team').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Connected apps' }).getAttribute('href')).toBe('/account/apps');

      await page.getByRole('link', { name: 'API keys' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'API keys' }).isVisible()).toBe(true);
      await page.getByLabel('Key name').fill('phone test');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = page.getByLabel('New API key');
      await expect.poll(() => key.inputValue()).toMatch(/^sess_[A-Za-z0-9_-]{43}$/);
      expect(await wholeKeyInView(page)).toBe(true);
      expect(await fitsWidth(page)).toBe(true);
      expect(await smallTargets(page)).toEqual([]);
      await shot(page, size, 'keys-created');
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await page.getByRole('button', { name: 'Copy key' }).click();
      await expect.poll(() => page.locator('#new-key-status').textContent()).toBe('Copied.');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await key.inputValue());
      // The list of keys: each one's name, prefix, workspace and use, readable at phone width.
      const row = page.getByRole('listitem').filter({ hasText: 'phone test' });
      expect(await row.textContent()).toMatch(/phone test sess_\S+….*Created \S.* · Last used Never/);
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

describe('a new API key on a small phone (360 px)', () => {
  const SMALL_PHONE = { ...SCREEN_SIZES.phone, viewport: { width: 360, height: 640 } };

  it.each([true, false])(
    'JavaScript %s: the whole key in view and selectable; Copy only where it can work',
    async (javaScriptEnabled) => {
      const user = await createTestUser(server.database.db);
      const { context, problems } = await openWatchedContext(browser, { ...SMALL_PHONE, javaScriptEnabled });
      try {
        const page = await context.newPage();
        await page.goto(`${server.url}/signin`);
        await page.getByLabel('Email').fill(user.email);
        await page.getByLabel('Password').fill(user.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('heading', { name: 'Your account' }).waitFor();
        await page.goto(`${server.url}/account/keys`);
        await page.getByLabel('Key name').fill('small phone');
        await page.getByRole('button', { name: 'Create key' }).click();
        const key = page.getByLabel('New API key');
        await expect.poll(() => key.inputValue()).toMatch(/^sess_[A-Za-z0-9_-]{43}$/);
        expect(await wholeKeyInView(page)).toBe(true);
        expect(await key.getAttribute('readonly')).not.toBeNull();
        // Selectable as it is: select it all, as a long press or Ctrl-A would, and the selection is the key.
        expect(
          await key.evaluate((field: HTMLTextAreaElement) => {
            field.select();
            return field.value.slice(field.selectionStart, field.selectionEnd);
          }),
        ).toBe(await key.inputValue());
        expect(await page.getByRole('button', { name: 'Copy key' }).isVisible()).toBe(javaScriptEnabled);
        expect(await fitsWidth(page)).toBe(true);
        expect(await smallTargets(page)).toEqual([]);
        await screenshot(page, `accounts-360-keys-created${javaScriptEnabled ? '' : '-nojs'}`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
