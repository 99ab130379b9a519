/*
 * The MCP Tasks extension on the real app (its own /mcp mount, tasks in its database): an MCP
 * client signed in through OAuth declares the extension, gets a task instead of a sess_response
 * wait, and a person answers on the real page in Chromium while the task is polled; cancelling a
 * task withdraws the form the person has open. SDK 2.4's client refuses a task as a tools/call
 * result, so the CreateTaskResult is read off the wire, through the transport's own fetch.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { createTestUser } from '@sess/testkit';
import { launchTestBrowser, SCREEN_SIZES } from '@sess/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { PersonAtTheKeyboard } from './support/oauth-provider.ts';

type Interaction = { handle: string; state: string; humanUrl?: string; response?: { values: Record<string, unknown> } };
type Task = {
  taskId: string;
  status: string;
  statusMessage?: string;
  result?: { structuredContent: { interaction: Interaction } };
};

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const AnyResult = z.looseObject({});
const SLOW = { timeout: 120_000 };
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

let server: AppServer;
let browser: Browser;
let client: Client;
/** The JSON-RPC results the client received, in order. */
const wire: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchTestBrowser()]);
  const user = await createTestUser(server.database.db);
  const url = new URL(`${server.url}/mcp`);
  const provider = new PersonAtTheKeyboard(server.url, user);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(
    new Client({ name: 'tasks-browser-test', version: '1' }, { versionNegotiation: { mode: 'auto' } }).connect(first),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  await first.finishAuth(provider.callback!);
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.headers.get('content-type')?.includes('application/json')) {
      const body = (await response.clone().json()) as { result?: Record<string, unknown> };
      if (body.result) wire.push(body.result);
    }
    return response;
  };
  client = new Client(
    { name: 'tasks-browser-test', version: '1' },
    { versionNegotiation: { mode: 'auto' }, capabilities: TASKS },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: recording }));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await browser?.close();
  await server?.close();
});

async function ask(question: string): Promise<Interaction> {
  const created = await client.callTool({
    name: 'sess_ask',
    arguments: {
      question,
      fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains'] }],
      submit_label: 'Plan it',
    },
  });
  return (created.structuredContent as { interaction: Interaction }).interaction;
}

async function startTask(handle: string): Promise<Task> {
  await expect(client.callTool({ name: 'sess_response', arguments: { handle, revision: 1 } })).rejects.toMatchObject({
    code: 'UNSUPPORTED_RESULT_TYPE',
  });
  return wire.at(-1) as unknown as Task;
}

const getTask = (taskId: string) => client.request({ method: 'tasks/get', params: { taskId } }, AnyResult) as Promise<Task>;

describe('a task while a person answers on the page', () => {
  it('works while the form is open, and completes with the verified answer once it is sent', SLOW, async () => {
    const form = await ask('Where should we go on Saturday?');
    const task = await startTask(form.handle);
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });

    const page = await (await browser.newContext(SCREEN_SIZES.phone)).newPage();
    await page.goto(form.humanUrl!);
    await heading(page, 'Where should we go on Saturday?').waitFor();
    expect(await getTask(task.taskId)).toMatchObject({ status: 'working' });
    await page.getByRole('radio', { name: 'Mountains' }).check();
    await page.getByRole('button', { name: 'Plan it' }).click();
    await heading(page, /^Sent/).waitFor();

    const done = await getTask(task.taskId);
    expect(done.status).toBe('completed');
    expect(done.result!.structuredContent.interaction).toMatchObject({
      state: 'answered',
      response: { values: { place: 'Mountains' } },
    });
  });

  it('tasks/cancel withdraws the form the person has open', SLOW, async () => {
    const form = await ask('Lunch by the lake?');
    const task = await startTask(form.handle);
    const page = await (await browser.newContext(SCREEN_SIZES.phone)).newPage();
    await page.goto(form.humanUrl!);
    await heading(page, 'Lunch by the lake?').waitFor();

    await client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, AnyResult);
    expect(await getTask(task.taskId)).toMatchObject({ status: 'cancelled' });
    await page.reload();
    await heading(page, /withdrawn/).waitFor();
  });
});
