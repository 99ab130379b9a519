/*
 * The whole product in a real browser: an MCP client signed in through OAuth by itself calls the
 * tools on the real app, and people answer on the real page in Chromium (phone viewport,
 * elements by role and label). Screenshots go to test-results/screenshots/.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { createTestUser } from '@sess/testkit';
import { launchTestBrowser, SCREEN_SIZES, screenshot } from '@sess/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { PersonAtTheKeyboard } from './support/oauth-provider.ts';

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; actionId: string; values: Record<string, unknown>; verified: boolean; actorAssurance: string };
  ask?: {
    id: string;
    open: boolean;
    counts: { started: number; answered: number; max: number };
    answers?: Array<{ name?: string }>;
  };
};

const PHONE = SCREEN_SIZES.phone;
const SLOW = { timeout: 120_000 };
const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

let server: AppServer;
let browser: Browser;
let client: Client;
beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchTestBrowser()]);
  const user = await createTestUser(server.database.db);
  const url = new URL(`${server.url}/mcp`);
  const provider = new PersonAtTheKeyboard(server.url, user);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(
    new Client({ name: 'browser-test', version: '1' }, { versionNegotiation: { mode: 'auto' } }).connect(first),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  await first.finishAuth(provider.callback!);
  client = new Client({ name: 'browser-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await browser?.close();
  await server?.close();
});

function shot(page: Page, name: string) {
  return screenshot(page, `mcp-${name}`);
}

describe('an agent and a person', () => {
  it(
    'sess_ask → answered on the phone → verified → sess_publish → answered → sess_complete → the page shows Done',
    SLOW,
    async () => {
      const created = interactionOf(
        await client.callTool({
          name: 'sess_ask',
          arguments: {
            question: 'Where should we go on Saturday?',
            details: 'I will check the forecast and suggest a plan.',
            fields: [
              { name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] },
              { name: 'avoid', label: 'Anything to avoid?', type: 'text', required: false },
            ],
            submit_label: 'Plan it',
          },
        }),
      );
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      await page.goto(created.humanUrl!);
      await heading(page, 'Where should we go on Saturday?').waitFor();
      await page.getByRole('radio', { name: 'Mountains' }).check();
      await page.getByLabel(/Anything to avoid\?/).fill('Crowds');
      await shot(page, 'ask-form');
      await page.getByRole('button', { name: 'Plan it' }).click();

      const answered = interactionOf(
        await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 20_000 } }),
      );
      expect(answered).toMatchObject({
        state: 'answered',
        response: { values: { place: 'Mountains', avoid: 'Crowds' }, verified: true, actorAssurance: 'link_holder' },
      });

      const published = interactionOf(
        await client.callTool({
          name: 'sess_publish',
          arguments: {
            handle: created.handle,
            expected_revision: 1,
            response_event_id: answered.response!.eventId,
            interaction: {
              mode: 'interactive',
              title: 'Leave at nine?',
              source: { kind: 'sess_surface', components: [{ type: 'text', text: 'Sunny in the mountains; two hours by car.' }] },
              actions: [
                { id: 'yes', label: 'Yes', intent: 'approve' },
                { id: 'later', label: 'Later', intent: 'reject' },
              ],
            },
          },
        }),
      );
      expect(published).toMatchObject({ state: 'waiting', revision: 2 });
      // The waiting page follows the session: the next step appears without a reload.
      await heading(page, 'Leave at nine?').waitFor({ timeout: 60_000 });
      await shot(page, 'next-step');
      await page.getByRole('button', { name: 'Yes' }).click();
      const second = interactionOf(
        await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 2, wait_ms: 20_000 } }),
      );
      expect(second).toMatchObject({ state: 'answered', response: { actionId: 'yes' } });
      const done = interactionOf(
        await client.callTool({
          name: 'sess_complete',
          arguments: { handle: created.handle, expected_revision: 2, response_event_id: second.response!.eventId },
        }),
      );
      expect(done.state).toBe('completed');
      await heading(page, 'Done').waitFor({ timeout: 60_000 });
      await shot(page, 'done');
      await context.close();
    },
  );

  it('an Ask with max 3 opened by five browsers: exactly three answers reach the agent, each verified', SLOW, async () => {
    const created = interactionOf(
      await client.callTool({
        name: 'sess_ask',
        arguments: {
          question: 'Which day suits you?',
          fields: [{ name: 'day', label: 'Day', type: 'choice', options: ['Friday', 'Saturday', 'Sunday'] }],
          submit_label: 'Send',
          respondents: { max: 3, name: true },
        },
      }),
    );
    expect(created.ask).toMatchObject({ open: true, counts: { max: 3 } });
    const contexts = await Promise.all(Array.from({ length: 5 }, () => browser.newContext(PHONE)));
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    await Promise.all(pages.map((p) => p.goto(created.humanUrl!)));
    await Promise.all(
      pages.map(async (p) => {
        await p.getByRole('button', { name: 'Start' }).click();
        await p.waitForURL(/\/s\/(r[A-Za-z0-9_-]{43}|[A-Za-z0-9_-]{43}\/start)$/);
      }),
    );
    const started = pages.filter((p) => /\/s\/r[A-Za-z0-9_-]{43}$/.test(p.url()));
    expect(started).toHaveLength(3);
    await Promise.all(
      started.map(async (p, i) => {
        await p.getByLabel('Your name').fill(`Person ${i + 1}`);
        await p.getByRole('radio', { name: ['Friday', 'Saturday', 'Sunday'][i]! }).check();
        await p.getByRole('button', { name: 'Send' }).click();
        await heading(p, 'Done').waitFor({ timeout: 60_000 });
      }),
    );
    await shot(started[0]!, 'ask-done');
    const read = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } }),
    );
    expect(read.state).toBe('closed');
    expect(read.ask?.counts).toMatchObject({ answered: 3, max: 3 });
    expect(read.ask?.answers?.map((a) => a.name).sort()).toEqual(['Person 1', 'Person 2', 'Person 3']);
    for (const c of contexts) await c.close();
  });
});
