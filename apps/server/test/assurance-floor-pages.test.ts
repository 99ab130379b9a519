/*
 * `/account/assurance` (issue 37): the person sets the floor of the forms their agents make, and
 * the owners of a workspace its API-key floor (members see it, read-only). In a real browser at
 * the phone size (390×844) and the desktop size, through the whole app; then the posts as they
 * arrive: a post without its CSRF token, or a member's for a workspace they do not own, changes
 * nothing.
 */
import { users, workspaces } from '@sess/db';
import { createTestUser, createTestWorkspace, signInThroughPages, type TestUser } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
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

async function floors(user: TestUser, workspaceId: string) {
  const [person] = await server.database.db.select({ floor: users.assuranceFloor }).from(users).where(eq(users.id, user.userId));
  const [workspace] = await server.database.db
    .select({ floor: workspaces.apiKeyAssuranceFloor })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return { person: person?.floor, workspace: workspace?.floor };
}

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  it('from /account: set my floor and my workspace’s API-key floor; a member sees another’s read-only', async () => {
    const user = await createTestUser(server.database.db);
    const team = await createTestWorkspace(server.database.db, { userId: user.userId, name: 'Design team', role: 'member' });
    const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES[size]);
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/signin`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Your account' }).isVisible()).toBe(true);
      await page.getByRole('link', { name: 'Who may answer' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Who may answer' }).isVisible()).toBe(true);
      expect(await page.locator('#mine-link').isChecked()).toBe(true);
      expect(await page.getByText('Only you can answer, signed in to Sess on that browser').isVisible()).toBe(true);
      // The member's workspace: its floor is shown, with no way to change it.
      expect(await page.getByText('Its owners set this.').isVisible()).toBe(true);
      expect(await page.locator(`#ws-${team.workspaceId}-account`).count()).toBe(0);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `assurance-${size}-page`);

      await page.locator('#mine-account').check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => page.getByText('Saved: forms your agents make need your sign-in.').isVisible()).toBe(true);
      expect(await page.locator('#mine-account').isChecked()).toBe(true);
      expect(await floors(user, user.workspaceId)).toEqual({ person: 'account', workspace: 'link' });

      await page.locator(`#ws-${user.workspaceId}-account`).check();
      await page.getByRole('button', { name: /^Save for / }).click();
      await expect.poll(() => page.getByText('Saved for forms made with that workspace’s API keys.').isVisible()).toBe(true);
      expect(await floors(user, user.workspaceId)).toEqual({ person: 'account', workspace: 'account' });
      expect(await floors(user, team.workspaceId)).toMatchObject({ workspace: 'link' });
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `assurance-${size}-saved`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the posts', () => {
  it('without the CSRF token: 403 and nothing changed; with it: saved', async () => {
    const user = await createTestUser(server.database.db);
    const { browser: pages } = await signInThroughPages(server.url, user.email, user.password);
    const bare = await pages.post('/account/assurance', { floor: 'account' });
    expect(bare.status).toBe(403);
    expect(bare.html).toContain('Nothing was changed');
    const wrong = await pages.post('/account/assurance/workspace', {
      _csrf: 'forged',
      workspace_id: user.workspaceId,
      floor: 'account',
    });
    expect(wrong.status).toBe(403);
    expect(await floors(user, user.workspaceId)).toEqual({ person: 'link', workspace: 'link' });

    const saved = await pages.submit('/account/assurance', '/account/assurance', { floor: 'account' });
    expect(saved.status).toBe(200);
    expect(await floors(user, user.workspaceId)).toEqual({ person: 'account', workspace: 'link' });
    // An unknown level is refused on the page, and changes nothing.
    const odd = await pages.submit('/account/assurance', '/account/assurance', { floor: 'high' });
    expect(odd.status).toBe(400);
    expect(odd.html).toContain('Choose one of the options.');
    expect(await floors(user, user.workspaceId)).toEqual({ person: 'account', workspace: 'link' });
    // The passkey floor is one of them.
    expect(odd.html).toContain('My passkey');
    const passkey = await pages.submit('/account/assurance', '/account/assurance', { floor: 'passkey' });
    expect(passkey.status).toBe(200);
    expect(await floors(user, user.workspaceId)).toEqual({ person: 'passkey', workspace: 'link' });
  });

  it("a member cannot set a workspace's API-key floor (a valid token, another workspace)", async () => {
    const user = await createTestUser(server.database.db);
    const team = await createTestWorkspace(server.database.db, { userId: user.userId, role: 'member' });
    const { browser: pages } = await signInThroughPages(server.url, user.email, user.password);
    const refused = await pages.submit('/account/assurance', '/account/assurance/workspace', {
      workspace_id: team.workspaceId,
      floor: 'account',
    });
    expect(refused.status).toBe(404);
    expect(refused.html).toContain('Only the owners of a workspace');
    expect(await floors(user, team.workspaceId)).toMatchObject({ workspace: 'link' });
  });

  it('signed out: sent to sign in', async () => {
    const response = await fetch(`${server.url}/account/assurance`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toContain('/signin');
  });
});
