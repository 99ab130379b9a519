/*
 * The plugin's four tools through their exported execute functions (what OpenClaw's Gateway
 * calls), against the real app on loopback: a full round (create with the full Surface → answer
 * posted on the real answer page → verified → follow-up → answer → complete), the shortcut form,
 * bad arguments with their JSON pointers, no key, Sess out of reach, a bad origin. Each test has
 * its own OpenClaw state directory; the key, the links and the answers must appear in no log line
 * and no file but the handle records (which hold the link by design, mode 0600).
 */
import { readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createApiKey } from '@sess/accounts';
import { ASK_OPEN_LINE } from '@sess/contract';
import { formSessions, workspaces } from '@sess/db';
import {
  answerAskOnPage,
  answerOnPage,
  createWorkspaceWithKey,
  sampleAskArguments,
  samplePushInteraction,
  sampleSurface,
} from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessTools, type OpenclawToolName, type SessToolResult, STOP_AND_CONTINUE_LINE } from '../src/index.ts';
import { type PluginHarness, type PluginTools, startPluginHarness } from './support/plugin-harness.ts';

let server: AppServer;
let h: PluginHarness;

beforeAll(async () => {
  server = await startAppServer();
  h = await startPluginHarness(server);
});

afterAll(async () => {
  await h?.close();
  await server?.close();
});

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; actionId: string; values: Record<string, unknown>; verified: boolean; receipt: string };
};

function interactionOf(result: SessToolResult): Interaction {
  if ('error' in result.details) throw new Error(`tool error: ${JSON.stringify(result.details.error)}`);
  return result.details.interaction as Interaction;
}

function errorOf(result: SessToolResult) {
  if (!('error' in result.details)) throw new Error(`expected an error, got ${JSON.stringify(result.details)}`);
  expect(JSON.parse(result.content[0]!.text)).toEqual(result.details);
  return result.details.error as {
    code: string;
    message: string;
    retryable: boolean;
    field?: string;
    limit?: number;
    length?: number;
  };
}

/** A refused call: the tool's result, and the same refusal from prepareArguments, before OpenClaw's own check. */
async function refusedBoth(plugin: PluginTools, name: OpenclawToolName, params: Record<string, unknown>) {
  const result = await plugin.call(name, params);
  const before = plugin.refusalBeforeCall(name, params);
  expect(before, `${name} prepareArguments`).toBeDefined();
  expect(JSON.parse(before!)).toEqual(result.details);
  return errorOf(result);
}

/** A free loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the OpenClaw tools against the real app', () => {
  it('lists four tools with the contract-derived parameters and no key, origin or workspace among them', () => {
    const tools = createSessTools({ env: {}, openclawStateDir: h.stateDir });
    expect(tools.map((tool) => tool.name)).toEqual(['sess_ask', 'sess_response', 'sess_publish', 'sess_complete']);
    for (const tool of tools) {
      const properties = Object.keys((tool.parameters as { properties: object }).properties);
      expect(
        properties.filter((p) => /key|origin|workspace/i.test(p)),
        tool.name,
      ).toEqual([]);
      expect(tool.description).toMatch(/person/);
    }
    expect(tools[0]!.description).toContain("only when a decision, an approval or facts are the person's own");
    expect(tools[1]!.description).toContain('call sess_complete next');
  });

  it('a full round: the full form, answered on the page, verified, a follow-up answered, completed', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const plugin = h.tools({ SESS_API_KEY: workspace.apiKey });

    const createdResult = await plugin.call('sess_ask', { interaction: sampleSurface() });
    const created = interactionOf(createdResult);
    expect(created).toMatchObject({ state: 'waiting', revision: 1 });
    h.link(created.humanUrl!);
    expect(createdResult.content[0]!.text).toMatch(
      new RegExp(
        `^Show the person this link now: ${created.humanUrl!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\nThen call sess_response\\.\n\n`,
      ),
    );
    expect(createdResult.content[0]!.text.endsWith(JSON.stringify({ interaction: created }))).toBe(true);

    // No answer yet: a short read, and the text tells the agent to stop and let the person say continue.
    const waitingResult = await plugin.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 });
    expect(interactionOf(waitingResult).state).toBe('waiting');
    expect(waitingResult.content[0]!.text.startsWith(`${STOP_AND_CONTINUE_LINE}\n\n`)).toBe(true);

    expect(await answerOnPage(created.humanUrl!, { message: 'Greet users by their first name' }, 'approve')).toBe(303);
    const answeredResult = await plugin.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 5000 });
    const answered = interactionOf(answeredResult);
    expect(answered.state).toBe('answered');
    expect(answered.response).toMatchObject({
      verified: true,
      actionId: 'approve',
      values: { message: 'Greet users by their first name' },
    });
    expect(answeredResult.content[0]!.text).toBe(JSON.stringify({ interaction: answered }));

    const published = interactionOf(
      await plugin.call('sess_publish', {
        handle: created.handle,
        expected_revision: 1,
        response_event_id: answered.response!.eventId,
        interaction: samplePushInteraction(),
      }),
    );
    expect(published).toMatchObject({ state: 'waiting', revision: 2 });

    expect(await answerOnPage(created.humanUrl!, {}, 'push')).toBe(303);
    const second = interactionOf(await plugin.call('sess_response', { handle: created.handle, revision: 2, wait_ms: 5000 }));
    expect(second).toMatchObject({ state: 'answered', revision: 2, response: { verified: true, actionId: 'push' } });

    const completed = interactionOf(
      await plugin.call('sess_complete', {
        handle: created.handle,
        expected_revision: 2,
        response_event_id: second.response!.eventId,
      }),
    );
    expect(completed).toMatchObject({ state: 'completed', revision: 2 });
    // The same call again is the same answer (idempotent), and a read says completed.
    expect(
      interactionOf(
        await plugin.call('sess_complete', {
          handle: created.handle,
          expected_revision: 2,
          response_event_id: second.response!.eventId,
        }),
      ).state,
    ).toBe('completed');
    expect(interactionOf(await plugin.call('sess_response', { handle: created.handle, revision: 2 })).state).toBe('completed');

    // The record is sess-mcp's file store, in <OpenClaw state dir>/sess, and holds no key.
    const record = join(plugin.stateDir, 'sess', 'profiles', 'default', 'handles', `${created.handle}.json`);
    expect((await stat(record)).mode & 0o777).toBe(0o600);
    expect(await h.filesHolding(plugin.stateDir, workspace.apiKey)).toEqual([]);
    expect(plugin.logLines().map((line) => line.replace(/ ms=[\d.]+$/, ''))).toEqual([
      `sess-openclaw tool=sess_ask outcome=waiting`,
      `sess-openclaw tool=sess_response handle=${created.handle} outcome=waiting`,
      `sess-openclaw tool=sess_response handle=${created.handle} outcome=answered`,
      `sess-openclaw tool=sess_publish handle=${created.handle} outcome=waiting`,
      `sess-openclaw tool=sess_response handle=${created.handle} outcome=answered`,
      `sess-openclaw tool=sess_complete handle=${created.handle} outcome=completed`,
      `sess-openclaw tool=sess_complete handle=${created.handle} outcome=completed`,
      `sess-openclaw tool=sess_response handle=${created.handle} outcome=completed`,
    ]);
    expect(h.leaks(plugin.logLines().join('\n'))).toEqual([]);
  });

  it('the shortcut form: a question and fields, answered and verified, then completed', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const plugin = h.tools({ SESS_API_KEY: workspace.apiKey });
    const created = interactionOf(
      await plugin.call('sess_ask', {
        question: 'Where should we go on Saturday?',
        fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] }],
        submit_label: 'Plan it',
      }),
    );
    expect(created.state).toBe('waiting');
    h.link(created.humanUrl!);
    expect(await answerOnPage(created.humanUrl!, { place: 'Beach' })).toBe(303);
    const answered = interactionOf(await plugin.call('sess_response', { handle: created.handle, revision: 1 }));
    expect(answered).toMatchObject({ state: 'answered', response: { verified: true, values: { place: 'Beach' } } });
    const completed = interactionOf(
      await plugin.call('sess_complete', {
        handle: created.handle,
        expected_revision: 1,
        response_event_id: answered.response!.eventId,
      }),
    );
    expect(completed.state).toBe('completed');
  });

  it('an Ask: two people answer one link, and a read shows both, verified; the open line, not the stop line', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const plugin = h.tools({ SESS_API_KEY: workspace.apiKey });
    const created = interactionOf(await plugin.call('sess_ask', sampleAskArguments({ max: 3 })));
    expect(created.state).toBe('waiting');
    h.link(created.humanUrl!);
    expect(await answerAskOnPage(created.humanUrl!, { place: 'Beach' })).toBe(303);
    expect(await answerAskOnPage(created.humanUrl!, { place: 'City' })).toBe(303);
    const result = await plugin.call('sess_response', { handle: created.handle, revision: 1 });
    const read = interactionOf(result) as Interaction & {
      ask: { open: boolean; counts: Record<string, number>; answers: Array<{ verified: boolean; values: { place: string } }> };
    };
    expect(read.state).toBe('waiting');
    expect(read.ask.counts).toMatchObject({ answered: 2, max: 3 });
    expect(read.ask.answers.every((answer) => answer.verified)).toBe(true);
    expect(read.ask.answers.map((answer) => answer.values.place).sort()).toEqual(['Beach', 'City']);
    expect(result.content[0]!.text.startsWith(`${ASK_OPEN_LINE}\n\n`)).toBe(true);
  });

  it('answer_in_chat reaches the stored form in both forms (false when given, an Ask always false)', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const plugin = h.tools({ SESS_API_KEY: workspace.apiKey });
    const stored = async () => {
      const rows = await server.database.db
        .select({ answerInChat: formSessions.answerInChat })
        .from(formSessions)
        .where(eq(formSessions.workspaceId, workspace.workspaceId));
      return rows.map((row) => row.answerInChat).sort();
    };
    h.link(interactionOf(await plugin.call('sess_ask', { interaction: sampleSurface(), answer_in_chat: false })).humanUrl!);
    const { respondents: _, ...plain } = sampleAskArguments({ max: 3 });
    h.link(interactionOf(await plugin.call('sess_ask', { ...plain, answer_in_chat: false })).humanUrl!);
    h.link(interactionOf(await plugin.call('sess_ask', sampleAskArguments({ max: 3 }))).humanUrl!);
    expect(await stored()).toEqual([false, false, false]);
    h.link(interactionOf(await plugin.call('sess_ask', plain)).humanUrl!);
    expect(await stored()).toEqual([false, false, false, true]);
  });

  it("the workspace's API-key floor beats assurance link, in both forms; the result says the level the form got", async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    await server.database.db
      .update(workspaces)
      .set({ apiKeyAssuranceFloor: 'account' })
      .where(eq(workspaces.id, workspace.workspaceId));
    const plugin = h.tools({ SESS_API_KEY: workspace.apiKey });
    const { respondents: _, ...plain } = sampleAskArguments({ max: 3 });
    for (const args of [
      { interaction: sampleSurface(), assurance: 'link' },
      { ...plain, assurance: 'link' },
    ]) {
      const created = interactionOf(await plugin.call('sess_ask', args)) as { humanUrl?: string; assurance?: string };
      h.link(created.humanUrl!);
      expect(created.assurance).toBe('account');
    }
    const rows = await server.database.db
      .select({ assurance: formSessions.assurance, forUserIds: formSessions.forUserIds })
      .from(formSessions)
      .where(eq(formSessions.workspaceId, workspace.workspaceId));
    expect(rows).toEqual([
      { assurance: 'account', forUserIds: [workspace.userId] },
      { assurance: 'account', forUserIds: [workspace.userId] },
    ]);
  });

  it('binds handles as sess-mcp does: another key of the workspace is BINDING_MISMATCH, another workspace HANDLE_NOT_FOUND', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const first = h.tools({ SESS_API_KEY: workspace.apiKey });
    const created = interactionOf(await first.call('sess_ask', { interaction: sampleSurface() }));
    h.link(created.humanUrl!);

    const rotated = await createApiKey({
      ctx: { db: server.database.db, now: () => new Date() },
      input: { workspaceId: workspace.workspaceId, name: 'rotated key', createdBy: workspace.userId },
    });
    h.secret(rotated.key);
    const afterRotation = h.tools({ SESS_API_KEY: rotated.key }, first.stateDir);
    expect(errorOf(await afterRotation.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }))).toMatchObject(
      {
        code: 'BINDING_MISMATCH',
        retryable: false,
      },
    );

    const other = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(other.apiKey);
    const otherWorkspace = h.tools({ SESS_API_KEY: other.apiKey }, first.stateDir);
    expect(errorOf(await otherWorkspace.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 })).code).toBe(
      'HANDLE_NOT_FOUND',
    );

    // The first key, in a new process on the same records, still reads it.
    const again = h.tools({ SESS_API_KEY: workspace.apiKey }, first.stateDir);
    expect(interactionOf(await again.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 })).state).toBe(
      'waiting',
    );
  });

  it('refuses bad arguments with INVALID_ARGUMENTS at their JSON pointer, and creates nothing', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const plugin = h.tools({ SESS_API_KEY: workspace.apiKey });
    const fields = [{ name: 'place', label: 'Where to?', type: 'text' }];

    const long = await refusedBoth(plugin, 'sess_ask', { question: 'x'.repeat(81), fields });
    expect(long).toMatchObject({ code: 'INVALID_ARGUMENTS', retryable: false, field: '/question', limit: 80, length: 81 });

    const deep = await refusedBoth(plugin, 'sess_ask', {
      interaction: { ...sampleSurface(), actions: [{ id: 'approve', label: 'x'.repeat(25), intent: 'approve' }] },
    });
    expect(deep).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/interaction/actions/0/label', limit: 24, length: 25 });

    // An Ask's link is for others: it is never answered in the chat.
    const askInChat = await refusedBoth(plugin, 'sess_ask', { ...sampleAskArguments({ max: 3 }), answer_in_chat: true });
    expect(askInChat).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/answer_in_chat' });

    // Both forms at once: the full form's parse refuses the shortcut's argument.
    const both = await refusedBoth(plugin, 'sess_ask', { interaction: sampleSurface(), question: 'Both?', fields });
    expect(both).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/question' });

    // A key, origin or workspace is never an argument.
    for (const [tool, args, pointer] of [
      ['sess_ask', { question: 'Where?', fields, api_key: 'sk_x' }, '/api_key'],
      ['sess_response', { handle: 'hdl_x', revision: 1, origin: 'https://another-sess.invalid' }, '/origin'],
      ['sess_complete', { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x', workspace: 'ws_x' }, '/workspace'],
    ] as const) {
      expect(await refusedBoth(plugin, tool, args), tool).toMatchObject({ code: 'INVALID_ARGUMENTS', field: pointer });
    }

    const bad = await refusedBoth(plugin, 'sess_response', { handle: 'hdl_x', revision: 0 });
    expect(bad).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/revision' });

    const publish = await refusedBoth(plugin, 'sess_publish', {
      handle: 'hdl_x',
      expected_revision: 1,
      response_event_id: 'evt_x',
      interaction: { ...samplePushInteraction(), title: 'x'.repeat(81) },
    });
    expect(publish).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/interaction/title', limit: 80, length: 81 });

    // Good arguments pass prepareArguments unchanged.
    expect(plugin.refusalBeforeCall('sess_ask', { question: 'Where?', fields })).toBeUndefined();
    expect(plugin.refusalBeforeCall('sess_ask', { interaction: sampleSurface() })).toBeUndefined();

    // Nothing was created: no record in the state directory.
    const handles = join(plugin.stateDir, 'sess', 'profiles', 'default', 'handles');
    expect(await readdir(handles).catch(() => [])).toEqual([]);
  });

  it('without SESS_API_KEY every tool is NOT_CONFIGURED, naming the variable', async () => {
    const plugin = h.tools({});
    for (const [tool, args] of [
      ['sess_ask', { question: 'Where?', fields: [{ name: 'place', label: 'Where to?', type: 'text' }] }],
      ['sess_response', { handle: 'hdl_x', revision: 1 }],
      [
        'sess_publish',
        { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x', interaction: samplePushInteraction() },
      ],
      ['sess_complete', { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x' }],
    ] as const) {
      const error = errorOf(await plugin.call(tool, args));
      expect(error, tool).toMatchObject({ code: 'NOT_CONFIGURED', retryable: false });
      expect(error.message).toContain('SESS_API_KEY');
    }
  });

  it('with Sess out of reach a tool is SESS_UNAVAILABLE (retryable): before the first call reached it, and after', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const args = { question: 'Where?', fields: [{ name: 'place', label: 'Where to?', type: 'text' }] };
    const never = h.tools({ SESS_API_KEY: workspace.apiKey, SESS_API_ORIGIN: `http://127.0.0.1:${await closedPort()}` });
    const first = errorOf(await never.call('sess_ask', args));
    expect(first).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
    expect(first.message).not.toContain(workspace.apiKey);

    // A Sess that answered the create, then stopped: the read is SESS_UNAVAILABLE, the record kept.
    const other = await startAppServer();
    let stopped = false;
    try {
      const otherWorkspace = await createWorkspaceWithKey(other.database.db, { plan: 'pro' });
      h.secret(otherWorkspace.apiKey);
      const plugin = h.tools({ SESS_API_KEY: otherWorkspace.apiKey, SESS_API_ORIGIN: other.url });
      const created = interactionOf(await plugin.call('sess_ask', args));
      h.link(created.humanUrl!);
      await other.close();
      stopped = true;
      const down = errorOf(await plugin.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }));
      expect(down).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
      const record = join(plugin.stateDir, 'sess', 'profiles', 'default', 'handles', `${created.handle}.json`);
      expect((await stat(record)).isFile()).toBe(true);
    } finally {
      if (!stopped) await other.close();
    }
  });

  it('a bad SESS_API_ORIGIN is NOT_CONFIGURED naming the variable, never its value', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    h.secret(workspace.apiKey);
    const plugin = h.tools({
      SESS_API_KEY: workspace.apiKey,
      SESS_API_ORIGIN: 'http://user:pw@sess.example/path',
    });
    const error = errorOf(await plugin.call('sess_response', { handle: 'hdl_x', revision: 1 }));
    expect(error.code).toBe('NOT_CONFIGURED');
    expect(error.message).toContain('SESS_API_ORIGIN');
    expect(error.message).not.toContain('sess.example');
  });
});
