import type { Client } from '@modelcontextprotocol/client';
import { queryRows } from '@sess/db';
import { recordLinkOpened, startRespondent, submitLinkAnswer } from '@sess/forms';
import { sampleSurface, tokenOf } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fetchVia } from './support/fetch-via.ts';
import { type McpHarness, startMcpHarness, structured } from './support/mcp-harness.ts';

/*
 * The MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on /mcp: a client that
 * declares it in its request capabilities gets a task instead of a sess_response wait, polls it
 * with tasks/get until the person answers, and may cancel it (the form is withdrawn). Tasks live
 * in the database: another endpoint over it, or one started after a restart, answers tasks/get.
 * Real runtime, real stores, the real MCP client. SDK 2.4's client refuses a task as a tools/call
 * result (it has no requester support yet), so the CreateTaskResult is read off the wire, through
 * the client transport's own fetch.
 */

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const AnyResult = z.looseObject({});

type Interaction = { handle: string; state: string; humanUrl?: string; response?: { receipt: string; eventId: string } };
type Task = {
  resultType?: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
  result?: { structuredContent: { interaction: Interaction }; content: Array<{ text: string }> };
};

interface TaskClient {
  client: Client;
  /** The JSON-RPC results this client received, in order. */
  wire: Array<Record<string, unknown>>;
}

/**
 * A status line set by a test for one session (null: none, as for a form made before the
 * timeline); every other session gets the real backend's, from its events.
 */
const timeline = new Map<string, string | null>();

let h: McpHarness;
beforeAll(async () => {
  h = await startMcpHarness({
    tasks: true,
    wrapBackend: (real) => ({
      ...real,
      statusLine: async (ctx, input) =>
        input.sessionId && timeline.has(input.sessionId)
          ? (timeline.get(input.sessionId) ?? undefined)
          : real.statusLine?.(ctx, input),
    }),
  });
});
afterAll(async () => h?.close());

/**
 * A declaring client. `via`: another endpoint's address, reached as a load balancer would send
 * it there, under the same Host (handles are bound to the origin a request was addressed to).
 */
async function taskClient(token: string, via?: string): Promise<TaskClient> {
  const wire: Array<Record<string, unknown>> = [];
  const send = via ? fetchVia(via) : globalThis.fetch;
  const recording: typeof globalThis.fetch = async (input, init) => {
    const response = await send(input, init);
    if (response.headers.get('content-type')?.includes('application/json')) {
      const body = (await response.clone().json()) as { result?: Record<string, unknown> };
      if (body.result) wire.push(body.result);
    }
    return response;
  };
  const client = await h.connect(token, 'modern', { capabilities: TASKS, fetch: recording });
  return { client, wire };
}

async function sessionOf(handle: string): Promise<string> {
  const [row] = await queryRows<{ session_id: string }>(
    h.database.db,
    sql`select session_id from mcp_handles where handle = ${handle}`,
  );
  return row!.session_id;
}

async function newForm(client: Client): Promise<Interaction> {
  const created = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } });
  expect(created.isError).toBeFalsy();
  return structured<{ interaction: Interaction }>(created).interaction;
}

/** sess_response with its default wait, from a declaring client: the task it got. */
async function startTask(tc: TaskClient, handle: string): Promise<Task> {
  const call = tc.client.callTool({ name: 'sess_response', arguments: { handle, revision: 1 } });
  await expect(call).rejects.toMatchObject({ code: 'UNSUPPORTED_RESULT_TYPE' });
  return tc.wire.at(-1) as unknown as Task;
}

const getTask = (client: Client, taskId: string) =>
  client.request({ method: 'tasks/get', params: { taskId } }, AnyResult) as Promise<Task>;

const answer = (form: Interaction) =>
  submitLinkAnswer(h.runtime, tokenOf(form.humanUrl!), { revision: 1, actionId: 'approve', submitted: { message: 'Ship it' } });

describe('a client that declares the Tasks extension', () => {
  it('gets a task instead of a wait, polls it while the person has not answered, then gets the exact sess_response result', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    timeline.set(await sessionOf(form.handle), null);

    const task = await startTask(tc, form.handle);
    expect(task).toMatchObject({ resultType: 'task', status: 'working', ttlMs: null, pollIntervalMs: 5000 });
    expect(task.taskId).toMatch(/^tsk_[A-Za-z0-9_-]{32}$/);
    // Without a timeline line: when it was sent and until when it is open, in UTC.
    const hhmm = h.clock.now().toISOString().slice(11, 16);
    expect(task.statusMessage).toMatch(new RegExp(`^Sent ${hhmm} UTC, not answered yet; open until .+ UTC\\.$`));
    expect(task.createdAt).toBe(h.clock.now().toISOString());

    const working = await getTask(tc.client, task.taskId);
    expect(working).toMatchObject({ taskId: task.taskId, status: 'working', createdAt: task.createdAt });
    expect(working.result).toBeUndefined();
    // tasks/get's own result type is the standard one.
    expect(tc.wire.at(-1)).toMatchObject({ resultType: 'complete', status: 'working' });

    expect((await answer(form)).ok).toBe(true);
    const done = await getTask(tc.client, task.taskId);
    expect(done.status).toBe('completed');
    const released = done.result!.structuredContent.interaction;
    expect(released).toMatchObject({ handle: form.handle, state: 'answered', response: { actionId: 'approve' } });

    // Exactly what sess_response says to a client without the extension, receipt included.
    const plain = await h.connect(token, 'modern');
    const read = await plain.callTool({ name: 'sess_response', arguments: { handle: form.handle, revision: 1 } });
    expect(done.result).toEqual({ content: read.content, structuredContent: read.structuredContent });
    expect(released.response!.receipt).toBe(structured<{ interaction: Interaction }>(read).interaction.response!.receipt);
  });

  it("a working task shows the backend's status line when it has one (the event timeline)", async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    const task = await startTask(tc, form.handle);
    const hhmm = h.clock.now().toISOString().slice(11, 16);
    expect(task.statusMessage).toBe(`Created (${hhmm} UTC)`);
    await recordLinkOpened(h.runtime, await sessionOf(form.handle));
    expect(await getTask(tc.client, task.taskId)).toMatchObject({
      status: 'working',
      statusMessage: `Opened in a browser (${hhmm} UTC)`,
    });
    timeline.set(await sessionOf(form.handle), 'opened 14:02');
    expect(await getTask(tc.client, task.taskId)).toMatchObject({ status: 'working', statusMessage: 'opened 14:02' });
  });

  it('its sess_response takes a place among calls, not waits: it never parks', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    const kinds: string[] = [];
    const admission = { admit: (kind: 'call' | 'wait') => kinds.push(kind) > 0, release: () => {} };
    const call = (declare: boolean) => {
      const capabilities = declare ? TASKS : {};
      const body = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'sess_response',
          arguments: { handle: form.handle, revision: 1, wait_ms: 1 },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      };
      const request = new Request(h.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'sess_response',
        },
        body: JSON.stringify(body),
      });
      return h.handler.fetch(request, { admission });
    };
    const tasked = (await (await call(true)).json()) as { result: Task };
    expect(tasked.result).toMatchObject({ resultType: 'task', status: 'working' });
    // A client without the extension, the same read with a 1 ms wait: a wait, as before.
    const waited = (await (await call(false)).json()) as { result: { structuredContent: { interaction: Interaction } } };
    expect(waited.result.structuredContent.interaction.state).toBe('waiting');
    expect(kinds).toEqual(['call', 'wait']);
  });

  it('an Ask: the task counts the answers while it is open, and completes with all of them once it closes', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const created = await tc.client.callTool({
      name: 'sess_ask',
      arguments: {
        question: 'Where should we go on Saturday?',
        fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains'] }],
        respondents: { max: 2 },
      },
    });
    const ask = structured<{ interaction: Interaction }>(created).interaction;
    const task = await startTask(tc, ask.handle);
    const hhmm = h.clock.now().toISOString().slice(11, 16);
    expect(task.statusMessage).toBe(`0 of 2 answered; last: Ask created (${hhmm} UTC)`);
    const shared = tokenOf(ask.humanUrl!);
    const first = await startRespondent(h.runtime, shared);
    await submitLinkAnswer(h.runtime, first.respondentToken, { revision: 1, submitted: { place: 'Beach' } });
    expect(await getTask(tc.client, task.taskId)).toMatchObject({
      status: 'working',
      statusMessage: `1 of 2 answered; last: A respondent answered, with the link (${hhmm} UTC)`,
    });
    const second = await startRespondent(h.runtime, shared);
    await submitLinkAnswer(h.runtime, second.respondentToken, { revision: 1, submitted: { place: 'Mountains' } });
    const done = await getTask(tc.client, task.taskId);
    expect(done.status).toBe('completed');
    const closed = done.result!.structuredContent.interaction as Interaction & { ask: { answers: unknown[] } };
    expect(closed.state).toBe('closed');
    expect(closed.ask.answers).toHaveLength(2);
  });

  it('a create is never a task, even when the call asks for one: the agent must show its link now', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    for (const [name, args] of [
      ['sess_request', { interaction: sampleSurface() }],
      ['sess_ask', { question: 'Lunch?', fields: [{ name: 'place', label: 'Where?', type: 'text' }] }],
    ] as const) {
      const created = (await tc.client.request(
        { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
        AnyResult,
      )) as { structuredContent: { interaction: Interaction } };
      expect(created.structuredContent.interaction).toMatchObject({ state: 'waiting', humanUrl: expect.stringContaining('/s/') });
      expect(tc.wire.at(-1)).toMatchObject({ resultType: 'complete' });
    }
  });

  it('a sess_response with a wait_ms the tool refuses gets its INVALID_ARGUMENTS, not a task', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    const refused = await tc.client.callTool({
      name: 'sess_response',
      arguments: { handle: form.handle, revision: 1, wait_ms: 45_001 },
    });
    expect(refused.isError).toBe(true);
    expect(structured<{ error: { code: string } }>(refused).error.code).toBe('INVALID_ARGUMENTS');
  });

  it('a read that is settled at once is answered as ever, not as a task', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    await answer(form);
    const read = await tc.client.callTool({ name: 'sess_response', arguments: { handle: form.handle, revision: 1 } });
    expect(structured<{ interaction: Interaction }>(read).interaction.state).toBe('answered');
    expect(tc.wire.at(-1)).toMatchObject({ resultType: 'complete' });
  });

  it('tasks/cancel withdraws the form; the task reads cancelled', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    const task = await startTask(tc, form.handle);

    await tc.client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, AnyResult);
    // An empty acknowledgement.
    expect(tc.wire.at(-1)).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect(await getTask(tc.client, task.taskId)).toMatchObject({ status: 'cancelled' });
    // The form is withdrawn: the person can no longer answer, and the handle says so.
    await expect(answer(form)).rejects.toMatchObject({ code: 'LINK_CLOSED' });
    const plain = await h.connect(token, 'modern');
    const read = await plain.callTool({ name: 'sess_response', arguments: { handle: form.handle, revision: 1, wait_ms: 0 } });
    expect(structured<{ interaction: Interaction }>(read).interaction.state).toBe('cancelled');
  });

  it('a form withdrawn another way completes the task with its final state', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    const task = await startTask(tc, form.handle);
    await tc.client.callTool({ name: 'sess_cancel', arguments: { handle: form.handle } });
    const done = await getTask(tc.client, task.taskId);
    expect(done.status).toBe('completed');
    expect(done.result!.structuredContent.interaction.state).toBe('cancelled');
  });

  it('another endpoint over the same database answers tasks/get (a second replica)', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const form = await newForm(tc.client);
    const task = await startTask(tc, form.handle);
    const replica = await h.addEndpoint();
    const there = await taskClient(token, replica.url);
    expect(await getTask(there.client, task.taskId)).toMatchObject({ status: 'working' });
    await answer(form);
    expect((await getTask(there.client, task.taskId)).result!.structuredContent.interaction.state).toBe('answered');
  });

  it('a task made before a restart is answered after it (a new app over the same database)', async () => {
    const { token } = await h.addPrincipal();
    const before = await h.addEndpoint();
    const tc = await taskClient(token, before.url);
    const form = await newForm(tc.client);
    const task = await startTask(tc, form.handle);
    await tc.client.close();
    await before.close();

    const after = await h.addEndpoint();
    const again = await taskClient(token, after.url);
    expect(await getTask(again.client, task.taskId)).toMatchObject({ taskId: task.taskId, status: 'working' });
    await answer(form);
    expect((await getTask(again.client, task.taskId)).status).toBe('completed');
  });

  it("another principal's task id is not found, in the same workspace or another", async () => {
    const owner = await h.addPrincipal();
    const tc = await taskClient(owner.token);
    const form = await newForm(tc.client);
    const task = await startTask(tc, form.handle);
    const neighbour = await h.addPrincipal({ workspaceId: owner.principal.workspaceId });
    const stranger = await h.addPrincipal();
    for (const other of [neighbour, stranger]) {
      const theirs = await taskClient(other.token);
      await expect(getTask(theirs.client, task.taskId)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('Task not found'),
      });
      await expect(
        theirs.client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, AnyResult),
      ).rejects.toMatchObject({ code: -32602 });
    }
    // Nothing of theirs touched the owner's task.
    expect(await getTask(tc.client, task.taskId)).toMatchObject({ status: 'working' });
  });
});

describe('a task whose form expires', () => {
  it('completes with the expired state (the clock moves on; last, as it moves the shared clock)', async () => {
    const { token } = await h.addPrincipal();
    const tc = await taskClient(token);
    const created = await tc.client.callTool({
      name: 'sess_request',
      arguments: { interaction: sampleSurface(), expires_in: 60 },
    });
    const form = structured<{ interaction: Interaction }>(created).interaction;
    const task = await startTask(tc, form.handle);
    h.clock.advance(61_000 + 8 * 86_400_000);
    const done = await getTask(tc.client, task.taskId);
    expect(done.status).toBe('completed');
    expect(done.result!.structuredContent.interaction.state).toBe('expired');
  });
});

describe('a client that does not declare the extension', () => {
  it('a 2025-era client: tasks/get is -32021 too (it cannot declare the extension)', async () => {
    const owner = await h.addPrincipal();
    const tc = await taskClient(owner.token);
    const task = await startTask(tc, (await newForm(tc.client)).handle);
    const legacy = await h.connect(owner.token, 'legacy');
    await expect(
      legacy.request({ method: 'tasks/get', params: { taskId: task.taskId } } as never, AnyResult),
    ).rejects.toMatchObject({
      code: -32021,
    });
  });

  it('tasks/get, tasks/update and tasks/cancel are -32021, naming the extension', async () => {
    const owner = await h.addPrincipal();
    const tc = await taskClient(owner.token);
    const task = await startTask(tc, (await newForm(tc.client)).handle);
    const plain = await h.connect(owner.token, 'modern');
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update'] as const) {
      const params = method === 'tasks/update' ? { taskId: task.taskId, inputResponses: {} } : { taskId: task.taskId };
      await expect(plain.request({ method, params } as never, AnyResult)).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      });
    }
    // Its own cancel attempt changed nothing.
    expect(await getTask(tc.client, task.taskId)).toMatchObject({ status: 'working' });
  });

  it('sess_response is answered as ever, never as a task', async () => {
    const { token } = await h.addPrincipal();
    const plain = await h.connect(token, 'modern');
    const form = await newForm(plain);
    await answer(form);
    const read = await plain.callTool({ name: 'sess_response', arguments: { handle: form.handle, revision: 1 } });
    expect(structured<{ interaction: Interaction }>(read).interaction.state).toBe('answered');
  });
});
