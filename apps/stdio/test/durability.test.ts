/*
 * The local records of sess-mcp under crashes and owner mistakes, against the real app. The
 * crash tests stop the process at a durable step with the test-only SESS_MCP_TEST_PAUSE_AT hook
 * (it writes a fixed stderr line and waits) and SIGKILL it there:
 * - after the create intent is saved, before the create is sent → the next call on that handle is
 *   CREATE_OUTCOME_UNKNOWN and Sess has no session;
 * - after a publish is saved, before it is sent → a different body is refused without a request,
 *   the identical call replays it and succeeds.
 * Then: another API key of the same workspace → BINDING_MISMATCH; a record with mode 0644 or JSON
 * that does not parse or a record file of gigabytes → STATE_STORE_ERROR, not retryable; the 101st
 * unfinished → STATE_STORE_FULL.
 */
import { chmod, readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileHandleStore } from '@sess/file-store';
import { answerOnPage, sampleHandleRecord, samplePushInteraction, sampleSurface } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, interactionOf, type StdioHarness, startStdioHarness } from './support/stdio-harness.ts';

let h: StdioHarness;

beforeAll(async () => {
  h = await startStdioHarness();
});

afterAll(async () => {
  await h?.close();
});

const handlesOf = (profile: string) => join(h.stateDir, 'profiles', profile, 'handles');

async function recordFiles(profile: string): Promise<string[]> {
  try {
    return (await readdir(handlesOf(profile))).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
  } catch {
    return [];
  }
}

/** What Sess itself holds for the key: the sessions of its workspace, over /v1. */
async function serverSessions(apiKey: string): Promise<Array<{ sessionId: string; revision: number }>> {
  const response = await fetch(`${h.server.url}/v1/sessions?limit=100`, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: Array<{ sessionId: string; revision: number }> }).sessions;
}

async function serverRevision(apiKey: string, sessionId: string): Promise<number> {
  const response = await fetch(`${h.server.url}/v1/sessions/${sessionId}`, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { revision: number }).revision;
}

describe('crash at a durable step (kill -9)', () => {
  it('after the create intent is saved: the next call on that handle is CREATE_OUTCOME_UNKNOWN and Sess has no session', async () => {
    const workspace = await h.workspace();
    const profile = 'crash-create';
    const paused = await h.spawn(
      h.env(workspace.apiKey, { SESS_MCP_PROFILE: profile, SESS_MCP_TEST_PAUSE_AT: 'after_create_intent' }),
    );
    const never = paused.call('sess_request', { interaction: sampleSurface() }).catch(() => undefined);
    await paused.waitForStderr('sess-mcp test.paused step=after_create_intent');
    await paused.kill9();
    await never;

    const files = await recordFiles(profile);
    expect(files).toHaveLength(1);
    const handle = files[0]!.slice(0, -'.json'.length);

    const next = await h.spawn(h.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
    const error = errorOf(await next.call('sess_response', { handle, revision: 1, wait_ms: 0 }));
    expect(error.code).toBe('CREATE_OUTCOME_UNKNOWN');
    expect(error.retryable).toBe(false);
    // sess_cancel on it is refused the same way: the server never leaves this state on its own.
    expect(errorOf(await next.call('sess_cancel', { handle })).code).toBe('CREATE_OUTCOME_UNKNOWN');
    expect(await serverSessions(workspace.apiKey)).toHaveLength(0);
    await next.close();
    expect(h.stderrLeaks()).toEqual([]);
  }, 120_000);

  it('after a publish is saved: a different body is refused without a request, the identical call replays and succeeds', async () => {
    const workspace = await h.workspace();
    const profile = 'crash-publish';
    const first = await h.spawn(h.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
    const created = interactionOf(await first.call('sess_request', { interaction: sampleSurface() }));
    h.link(created.humanUrl!);
    expect(await answerOnPage(created.humanUrl!, { message: 'Ship it' }, 'approve')).toBe(303);
    const answered = interactionOf(await first.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 5000 }));
    expect(answered.state).toBe('answered');
    await first.close();

    const publish = {
      handle: created.handle,
      expected_revision: 1,
      response_event_id: answered.response!.eventId,
      interaction: samplePushInteraction(),
    };
    const paused = await h.spawn(
      h.env(workspace.apiKey, { SESS_MCP_PROFILE: profile, SESS_MCP_TEST_PAUSE_AT: 'after_mutation_saved' }),
    );
    const never = paused.call('sess_publish', publish).catch(() => undefined);
    await paused.waitForStderr('sess-mcp test.paused step=after_mutation_saved');
    await paused.kill9();
    await never;
    const [session] = await serverSessions(workspace.apiKey);
    expect(await serverRevision(workspace.apiKey, session!.sessionId)).toBe(1);

    const next = await h.spawn(h.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
    const other = { ...publish, interaction: { ...samplePushInteraction(), title: 'Push to a branch instead?' } };
    const refused = errorOf(await next.call('sess_publish', other));
    expect(refused.code).toBe('PENDING_MUTATION_DIFFERS');
    expect(await serverRevision(workspace.apiKey, session!.sessionId)).toBe(1);

    const replayed = interactionOf(await next.call('sess_publish', publish));
    expect(replayed).toMatchObject({ handle: created.handle, state: 'waiting', revision: 2 });
    expect(await serverRevision(workspace.apiKey, session!.sessionId)).toBe(2);
    // Replayed once more (a lost answer to the replay), it is the same confirmed publish.
    expect(interactionOf(await next.call('sess_publish', publish))).toMatchObject({ state: 'waiting', revision: 2 });
    await next.close();
    expect(h.stderrLeaks()).toEqual([]);
  }, 120_000);
});

describe('records the process cannot use', () => {
  it('another key of the workspace is BINDING_MISMATCH; a record with mode 0644, unparsable JSON or over 4 MiB is STATE_STORE_ERROR, not retryable', async () => {
    const workspace = await h.workspace();
    const profile = 'owner-mistakes';
    const mcp = await h.spawn(h.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
    const handles: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = interactionOf(await mcp.call('sess_request', { interaction: sampleSurface() }));
      h.link(created.humanUrl!);
      handles.push(created.handle);
    }
    const [open, loose, broken, huge] = handles as [string, string, string, string];

    await chmod(join(handlesOf(profile), `${loose}.json`), 0o644);
    const insecure = errorOf(await mcp.call('sess_response', { handle: loose, revision: 1, wait_ms: 0 }));
    expect(insecure).toMatchObject({ code: 'STATE_STORE_ERROR', retryable: false });

    await writeFile(join(handlesOf(profile), `${broken}.json`), '{"format":1,"record":', { mode: 0o600 });
    const unreadable = errorOf(await mcp.call('sess_response', { handle: broken, revision: 1, wait_ms: 0 }));
    expect(unreadable).toMatchObject({ code: 'STATE_STORE_ERROR', retryable: false });
    // Sparse: 8 GiB on paper, no disk. The store reads 4 MiB + 1 bytes of it and refuses it.
    await truncate(join(handlesOf(profile), `${huge}.json`), 8 * 1024 ** 3);
    const tooLarge = errorOf(await mcp.call('sess_response', { handle: huge, revision: 1, wait_ms: 0 }));
    expect(tooLarge).toMatchObject({ code: 'STATE_STORE_ERROR', retryable: false });
    expect(tooLarge.message).toContain(`interaction ${huge} is larger than anything this store writes`);
    expect(tooLarge.message).toContain('(over 4 MiB)');
    // No message names a path or repeats the file.
    for (const error of [insecure, unreadable, tooLarge]) expect(error.message).not.toContain(h.stateDir);
    await mcp.close();

    const rotatedKey = await h.anotherKey(workspace);
    const rotated = await h.spawn(h.env(rotatedKey, { SESS_MCP_PROFILE: profile }));
    const mismatch = errorOf(await rotated.call('sess_response', { handle: open, revision: 1, wait_ms: 0 }));
    expect(mismatch).toMatchObject({ code: 'BINDING_MISMATCH', retryable: false });
    await rotated.close();
    expect(h.stderrLeaks()).toEqual([]);
  }, 120_000);

  it('the 101st unfinished interaction of a profile is STATE_STORE_FULL and reaches no one', async () => {
    const workspace = await h.workspace();
    const profile = 'full';
    // 100 unfinished records of this very binding, written by the file store as the server writes them.
    const store = createFileHandleStore({ stateDir: h.stateDir, profile });
    const binding = {
      origin: h.server.url,
      workspaceId: workspace.workspaceId,
      principalId: profile,
      clientId: 'sess-mcp-stdio',
      grantId: profile,
      grantGeneration: await store.credentialGeneration(workspace.apiKey),
    };
    const bound = store.bind(binding);
    for (let i = 0; i < 100; i++) await bound.insert(sampleHandleRecord(binding));

    const mcp = await h.spawn(h.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
    const full = errorOf(await mcp.call('sess_request', { interaction: sampleSurface() }));
    expect(full).toMatchObject({ code: 'STATE_STORE_FULL', retryable: false });
    expect(await recordFiles(profile)).toHaveLength(100);
    expect(await serverSessions(workspace.apiKey)).toHaveLength(0);
    await mcp.close();
    // The credentials file holds a digest of the key, never the key.
    expect(await readFile(join(h.stateDir, 'profiles', profile, 'credentials.json'), 'utf8')).not.toContain(workspace.apiKey);
  }, 120_000);
});
