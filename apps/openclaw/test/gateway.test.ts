/*
 * The plugin inside a real OpenClaw Gateway (2026.9.6 on Node 24, from openclaw-host/), no model:
 * the packed tarball installed into an empty OpenClaw home with the README's line, the key and
 * origin in that home's ~/.openclaw/.env, the Gateway started headless on loopback with a shared
 * token, and each tool called through the Gateway's `POST /tools/invoke` against the real
 * apps/server: a full round (create → answered on the real answer page → verified → follow-up →
 * answered → completed), the shortcut form, bad arguments with their JSON pointer, Sess out of
 * reach (SESS_UNAVAILABLE), and — after a restart with no key in the file — NOT_CONFIGURED.
 *
 * The Gateway reaches the app through a TCP relay, so the test can take Sess away while the
 * Gateway keeps its origin; receipts are still checked against the app's own issuer.
 * Runs on the pglite project only: it tests the plugin inside OpenClaw, and the round's database
 * work is covered on both drivers by tools.test.ts. Skipped when openclaw-host is not installed.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  answerOnPage,
  createWorkspaceWithKey,
  onlyOn,
  recordSecret,
  samplePushInteraction,
  sampleSurface,
  type TestWorkspace,
  tokenOf,
} from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildAndPack,
  createOpenclawHome,
  filesEndingWith,
  type Gateway,
  type InvokeResponse,
  installArgs,
  type OpenclawHome,
  openclawInstalled,
  startGateway,
  startRelay,
} from './support/openclaw-host.ts';

const TOKEN = 'gateway-test-token-0123456789abcdef';

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; actionId: string; values: Record<string, unknown>; verified: boolean; receipt: string };
};
type ToolError = { code: string; message: string; retryable: boolean; field?: string; limit?: number; length?: number };

/** A tool's result through the Gateway: HTTP 200, `ok: true`, the plugin's `details` as they are. */
function detailsOf(response: InvokeResponse): Record<string, unknown> {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.ok).toBe(true);
  const result = response.body.result!;
  expect(result.content[0]!.type).toBe('text');
  return result.details;
}

function interactionOf(response: InvokeResponse): Interaction {
  const details = detailsOf(response);
  if ('error' in details) throw new Error(`tool error: ${JSON.stringify(details.error)}`);
  return details.interaction as Interaction;
}

/**
 * A refused call through the Gateway. On /tools/invoke, OpenClaw 2026.9.6 hands the arguments to
 * the tool unchecked, so the plugin's own parse answers: the MCP tools' error, at 200 under
 * `details.error`, the same JSON as the text the model reads.
 */
function errorOf(response: InvokeResponse): ToolError {
  const details = detailsOf(response);
  if (!('error' in details)) throw new Error(`expected an error, got ${JSON.stringify(details)}`);
  expect(JSON.parse(response.body.result!.content[0]!.text)).toEqual(details);
  return details.error as ToolError;
}

const onDriver = onlyOn('openclaw: the plugin in a real Gateway');
describe.runIf(onDriver && openclawInstalled)('the plugin in a real OpenClaw Gateway', () => {
  let server: AppServer;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let workspace: TestWorkspace;
  let packed: Awaited<ReturnType<typeof buildAndPack>>;
  let home: OpenclawHome;
  let gateway: Gateway | undefined;
  const earlierOutput: string[] = [];
  const secrets = new Set<string>();

  function secret(value: string, kind: 'api-key' | 'link') {
    secrets.add(value);
    recordSecret(value, kind);
  }
  function link(humanUrl: string) {
    secret(humanUrl, 'link');
    secret(tokenOf(humanUrl), 'link');
  }
  const leaks = (text: string) => [...secrets].filter((value) => text.includes(value));

  function gatewayEnv(withKey: boolean): Record<string, string> {
    return {
      ...(withKey ? { SESS_API_KEY: workspace.apiKey } : {}),
      SESS_API_ORIGIN: relay.origin,
      SESS_RECEIPT_ISSUER: server.url,
    };
  }

  beforeAll(async () => {
    server = await startAppServer();
    relay = await startRelay(Number(new URL(server.url).port));
    workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    secret(workspace.apiKey, 'api-key');
    packed = await buildAndPack();
    home = await createOpenclawHome();
    const install = await home.run(installArgs(packed.tarball));
    expect(install.stdout + install.stderr).toContain('Installed plugin: sess');
    await home.writeEnvFile(gatewayEnv(true));
    gateway = await startGateway(home, TOKEN);
  }, 900_000);

  afterAll(async () => {
    await gateway?.stop();
    await home?.close();
    await packed?.close();
    await relay?.cut().catch(() => undefined);
    await server?.close();
  }, 120_000);

  it('answers only with the token: no bearer is 401, an unknown tool 404', async () => {
    const anonymous = await gateway!.invoke('sess_ask', {}, { token: null });
    expect(anonymous.status).toBe(401);
    const unknown = await gateway!.invoke('sess_nothing', {});
    expect(unknown.status).toBe(404);
  });

  it('a full round through /tools/invoke: created, answered on the page, verified, followed up, completed', async () => {
    const createdResponse = await gateway!.invoke('sess_ask', { interaction: sampleSurface() });
    const created = interactionOf(createdResponse);
    expect(created).toMatchObject({ state: 'waiting', revision: 1 });
    link(created.humanUrl!);
    expect(createdResponse.body.result!.content[0]!.text.startsWith(`Show the person this link now: ${created.humanUrl}`)).toBe(
      true,
    );

    const waiting = interactionOf(await gateway!.invoke('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }));
    expect(waiting.state).toBe('waiting');

    expect(await answerOnPage(created.humanUrl!, { message: 'Greet users by their first name' }, 'approve')).toBe(303);
    const answered = interactionOf(
      await gateway!.invoke('sess_response', { handle: created.handle, revision: 1, wait_ms: 5000 }),
    );
    expect(answered).toMatchObject({
      state: 'answered',
      response: { verified: true, actionId: 'approve', values: { message: 'Greet users by their first name' } },
    });

    const published = interactionOf(
      await gateway!.invoke('sess_publish', {
        handle: created.handle,
        expected_revision: 1,
        response_event_id: answered.response!.eventId,
        interaction: samplePushInteraction(),
      }),
    );
    expect(published).toMatchObject({ state: 'waiting', revision: 2 });

    expect(await answerOnPage(created.humanUrl!, {}, 'push')).toBe(303);
    const second = interactionOf(await gateway!.invoke('sess_response', { handle: created.handle, revision: 2, wait_ms: 5000 }));
    expect(second).toMatchObject({ state: 'answered', revision: 2, response: { verified: true, actionId: 'push' } });

    const completed = interactionOf(
      await gateway!.invoke('sess_complete', {
        handle: created.handle,
        expected_revision: 2,
        response_event_id: second.response!.eventId,
      }),
    );
    expect(completed).toMatchObject({ state: 'completed', revision: 2 });

    // The record is in the plugin's state directory inside OpenClaw's, mode 0600.
    const record = join(home.stateDir, 'sess', 'profiles', 'default', 'handles', `${created.handle}.json`);
    expect((await stat(record)).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('the shortcut form through /tools/invoke: a question and fields, answered and verified', async () => {
    const created = interactionOf(
      await gateway!.invoke('sess_ask', {
        question: 'Where should we go on Saturday?',
        fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] }],
      }),
    );
    link(created.humanUrl!);
    expect(await answerOnPage(created.humanUrl!, { place: 'Beach' })).toBe(303);
    const answered = interactionOf(await gateway!.invoke('sess_response', { handle: created.handle, revision: 1 }));
    expect(answered).toMatchObject({ state: 'answered', response: { verified: true, values: { place: 'Beach' } } });
  }, 120_000);

  it('bad arguments: INVALID_ARGUMENTS at their JSON pointer; a key or an origin is never an argument', async () => {
    const fields = [{ name: 'place', label: 'Where to?', type: 'text' }];
    expect(errorOf(await gateway!.invoke('sess_ask', { question: 'x'.repeat(81), fields }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      retryable: false,
      field: '/question',
      limit: 80,
      length: 81,
    });
    expect(
      errorOf(
        await gateway!.invoke('sess_ask', {
          interaction: { ...sampleSurface(), actions: [{ id: 'approve', label: 'x'.repeat(25), intent: 'approve' }] },
        }),
      ),
    ).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/interaction/actions/0/label', limit: 24, length: 25 });
    expect(errorOf(await gateway!.invoke('sess_response', { handle: 'hdl_x', revision: 0 }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/revision',
    });
    expect(errorOf(await gateway!.invoke('sess_ask', { question: 'Where?', fields, api_key: 'sk_x' }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/api_key',
    });
    expect(
      errorOf(await gateway!.invoke('sess_response', { handle: 'hdl_x', revision: 1, origin: 'https://another-sess.invalid' })),
    ).toMatchObject({ code: 'INVALID_ARGUMENTS', field: '/origin' });
  }, 120_000);

  it('with Sess out of reach a read is SESS_UNAVAILABLE (retryable) and the record is kept', async () => {
    const created = interactionOf(
      await gateway!.invoke('sess_ask', { question: 'Still there?', fields: [{ name: 'note', label: 'Note', type: 'text' }] }),
    );
    link(created.humanUrl!);
    await relay.cut();
    const down = errorOf(await gateway!.invoke('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }));
    expect(down).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
    const record = join(home.stateDir, 'sess', 'profiles', 'default', 'handles', `${created.handle}.json`);
    expect((await stat(record)).isFile()).toBe(true);
  }, 120_000);

  it('after a restart without a key in the environment file, every tool is NOT_CONFIGURED naming SESS_API_KEY', async () => {
    await gateway!.stop();
    earlierOutput.push(gateway!.output());
    gateway = undefined;
    await home.writeEnvFile(gatewayEnv(false));
    gateway = await startGateway(home, TOKEN);
    for (const [tool, args] of [
      ['sess_ask', { question: 'Where?', fields: [{ name: 'place', label: 'Where to?', type: 'text' }] }],
      ['sess_response', { handle: 'hdl_x', revision: 1 }],
      [
        'sess_publish',
        { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x', interaction: samplePushInteraction() },
      ],
      ['sess_complete', { handle: 'hdl_x', expected_revision: 1, response_event_id: 'evt_x' }],
    ] as const) {
      const error = errorOf(await gateway.invoke(tool, args));
      expect(error, tool).toMatchObject({ code: 'NOT_CONFIGURED', retryable: false });
      expect(error.message).toContain('SESS_API_KEY');
    }
  }, 600_000);

  it('the key, the links and their tokens are in no Gateway output and in no file but the records', async () => {
    expect(leaks([...earlierOutput, gateway?.output() ?? ''].join('\n'))).toEqual([]);
    // OpenClaw's own log file (shared by every Gateway of this machine; the secrets are this test's).
    for (const file of await filesEndingWith('/tmp/openclaw', '.log').catch(() => [])) {
      expect(leaks(await readFile(file, 'utf8')), file).toEqual([]);
    }
    const records = join(home.stateDir, 'sess', 'profiles');
    for (const file of [...(await filesEndingWith(home.stateDir, '.json')), ...(await filesEndingWith(home.stateDir, '.log'))]) {
      if (file.startsWith(records)) continue;
      expect(leaks(await readFile(file, 'utf8')), file).toEqual([]);
    }
  });
});
