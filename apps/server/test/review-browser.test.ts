/*
 * /account/interactions in a real browser (the system Chromium through playwright-core) at a
 * phone size and a desktop size: sign in, follow "Interactions to review" from the account page,
 * Retire a blocked interaction, see it gone. Any CSP violation or page error fails the test.
 * Screenshots go to test-results/screenshots/.
 */
import { newId } from '@sess/core';
import { queryRows } from '@sess/db';
import { createPostgresHandleStore } from '@sess/hosted';
import type { HandleBinding } from '@sess/interactions';
import { createTestUser, TEST_SECRET } from '@sess/testkit';
import { fitsWidth, launchTestBrowser, openWatchedContext, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';

let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchTestBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.each(['phone', 'desktop'] as const)('at %s size', (size) => {
  it('sign in, open Interactions to review from the account page, Retire one', async () => {
    const user = await createTestUser(server.database.db);
    const binding: HandleBinding = {
      origin: server.url,
      workspaceId: user.workspaceId,
      principalId: user.userId,
      clientId: newId('oauthClient'),
      grantId: newId('oauthGrant'),
      grantGeneration: 1,
    };
    const at = new Date().toISOString();
    const handle = newId('handle');
    await createPostgresHandleStore({ db: server.database.db, secret: TEST_SECRET })
      .bind(binding)
      .insert({
        ...binding,
        handle,
        kind: 'interaction',
        state: 'blocked',
        blockedReason: 'verification_failed',
        version: 1,
        revision: 1,
        title: 'Approve the quarterly report?',
        createdAt: at,
        updatedAt: at,
      });

    const { context, problems } = await openWatchedContext(browser, SCREEN_SIZES[size]);
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/account`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('link', { name: 'Interactions to review' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Interactions to review');
      await expect.poll(() => page.getByRole('heading', { name: 'Approve the quarterly report?' }).isVisible()).toBe(true);
      expect(await page.textContent('body')).toContain('receipt did not verify');
      const retire = page.getByRole('button', { name: 'Retire “Approve the quarterly report?”' });
      const box = await retire.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `review-${size}`);

      await retire.click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Retired.');
      expect(await page.textContent('body')).toContain('Nothing to review.');
      await screenshot(page, `review-retired-${size}`);
      const [row] = await queryRows<{ state: string }>(
        server.database.db,
        sql`select state from mcp_handles where handle = ${handle}`,
      );
      expect(row?.state).toBe('cancelled');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
