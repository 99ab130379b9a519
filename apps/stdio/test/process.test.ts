/*
 * sess-mcp as a process: configuration errors, `--help`, `doctor` with and without a key and with
 * the server up and down, a tool call while the server is down, and a runtime that does not name
 * the workspace (SESS_EXPECTED_WORKSPACE_ID).
 *
 * Run once, on the PGlite project only: what is tested here is the process, its environment and
 * the network path to Sess — nothing here depends on the database driver behind the app, and each
 * case spawns processes on a machine with two shared cores.
 */

import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { onlyOn, sampleSurface } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareEnv, errorOf, interactionOf, runBin, type StdioHarness, startStdioHarness } from './support/stdio-harness.ts';

describe.runIf(onlyOn('stdio: sess-mcp as a process'))('sess-mcp as a process', () => {
  let h: StdioHarness;

  beforeAll(async () => {
    h = await startStdioHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('--help prints the usage and exits 0', async () => {
    const run = await runBin(['--help'], bareEnv({}));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('sess-mcp doctor');
    expect(run.stdout).toContain('SESS_API_KEY');
  });

  it.each([
    ['SESS_API_ORIGIN', { SESS_API_ORIGIN: 'https://owner:pa55w0rd-secret@api.example.com' }, 'pa55w0rd-secret'],
    ['SESS_API_ORIGIN', { SESS_API_ORIGIN: 'http://api.example.com' }, 'api.example.com'],
    ['SESS_MCP_STATE_DIR', { SESS_MCP_STATE_DIR: 'relative/state' }, 'relative/state'],
    ['SESS_MCP_MAX_WAIT_MS', { SESS_MCP_MAX_WAIT_MS: '90000' }, '90000'],
  ])('a bad %s is one line on stderr, exit 2, without the value', async (variable, env, value) => {
    const run = await runBin([], bareEnv({ ...env, SESS_API_KEY: 'sess_key_never_printed' }));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^sess-mcp: configuration error: /);
    expect(lines[0]).toContain(variable);
    expect(run.stderr).not.toContain(value);
    expect(run.stderr).not.toContain('sess_key_never_printed');
  });

  it('arguments are refused (exit 2) and never echoed: the key is never taken from arguments', async () => {
    const run = await runBin(['--api-key', 'sess_key_on_the_command_line'], bareEnv({}));
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('sess_key_on_the_command_line');
  });

  it('doctor with a key and the server up: origin, profile, state dir, key set (not shown), API, JWKS, records; exit 0', async () => {
    const workspace = await h.workspace();
    const mcp = await h.spawn(h.env(workspace.apiKey, { SESS_MCP_PROFILE: 'doctor' }));
    h.link(interactionOf(await mcp.call('sess_request', { interaction: sampleSurface() })).humanUrl!);
    await mcp.close();

    const run = await runBin(['doctor'], h.env(workspace.apiKey, { SESS_MCP_PROFILE: 'doctor' }));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`origin     ${h.server.url}`);
    expect(run.stdout).toContain('profile    doctor');
    expect(run.stdout).toContain(`state dir  ${h.stateDir}`);
    expect(run.stdout).toContain('api key    set (SESS_API_KEY)');
    expect(run.stdout).toContain(`api        ok (the key acts in workspace ${workspace.workspaceId})`);
    expect(run.stdout).toMatch(/jwks {7}ok \(\d+ receipt keys?\)/);
    expect(run.stdout).toContain('records    waiting 1');
    expect(run.stdout).toContain('result     ok');
    expect(run.stdout + run.stderr).not.toContain(workspace.apiKey);
  });

  it('doctor without a key: says it is not set, still checks the API and JWKS, exit 1', async () => {
    const run = await runBin(['doctor'], h.env(undefined, { SESS_MCP_PROFILE: 'doctor-nokey' }));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('api key    not set');
    expect(run.stdout).toContain('api        ok (answers; no key to try)');
    expect(run.stdout).toMatch(/jwks {7}ok/);
    expect(run.stdout).toContain('records    none yet');
  });

  it('a runtime without Sess-Workspace-Id: NOT_CONFIGURED naming SESS_EXPECTED_WORKSPACE_ID, then served with it', async () => {
    const workspace = await h.workspace();
    // A gateway in front of the app that drops the header, as a runtime that does not send it.
    const gateway: Server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = new Headers();
      const hopByHop = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !hopByHop.has(name)) headers.set(name, value);
      }
      const upstream = await fetch(`${h.server.url}${request.url}`, {
        method: request.method!,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (name !== 'sess-workspace-id' && name !== 'content-encoding' && name !== 'content-length') out[name] = value;
      });
      response.writeHead(upstream.status, out);
      response.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    try {
      const without = await h.spawn(h.env(workspace.apiKey, { SESS_API_ORIGIN: origin, SESS_MCP_PROFILE: 'gateway' }));
      const error = errorOf(await without.call('sess_list', {}));
      expect(error.code).toBe('NOT_CONFIGURED');
      expect(error.message).toContain('SESS_EXPECTED_WORKSPACE_ID');
      await without.close();

      const withId = await h.spawn(
        h.env(workspace.apiKey, {
          SESS_API_ORIGIN: origin,
          SESS_MCP_PROFILE: 'gateway',
          SESS_EXPECTED_WORKSPACE_ID: workspace.workspaceId,
          SESS_RECEIPT_ISSUER: h.server.url,
        }),
      );
      const created = interactionOf(await withId.call('sess_request', { interaction: sampleSurface() }));
      h.link(created.humanUrl!);
      expect(created.state).toBe('waiting');
      await withId.close();
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
    }
  }, 60_000);

  it('server down: a tool call is SESS_UNAVAILABLE, retryable, nothing changed; doctor says unreachable, exit 1', async () => {
    const down = await startStdioHarness();
    try {
      const workspace = await down.workspace();
      const profile = 'down';
      const mcp = await down.spawn(down.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
      const created = interactionOf(await mcp.call('sess_request', { interaction: sampleSurface() }));
      down.link(created.humanUrl!);
      const handles = join(down.stateDir, 'profiles', profile, 'handles');
      const before = await readFile(join(handles, `${created.handle}.json`));

      await down.server.close();

      const read = errorOf(await mcp.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }));
      expect(read).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
      const create = errorOf(await mcp.call('sess_request', { interaction: sampleSurface() }));
      expect(create).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
      // Nothing changed: the one record as it was, and no intent left behind by the refused create.
      expect(await readFile(join(handles, `${created.handle}.json`))).toEqual(before);
      expect((await readdir(handles)).filter((name) => !name.startsWith('.'))).toEqual([`${created.handle}.json`]);
      await mcp.close();

      // A process started while the server is down: the first call cannot learn the workspace.
      const fresh = await down.spawn(down.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
      expect(errorOf(await fresh.call('sess_list', {}))).toMatchObject({ code: 'SESS_UNAVAILABLE', retryable: true });
      await fresh.close();

      const doctor = await runBin(['doctor'], down.env(workspace.apiKey, { SESS_MCP_PROFILE: profile }));
      expect(doctor.code).toBe(1);
      expect(doctor.stdout).toContain('api        FAILED: unreachable');
      expect(doctor.stdout).toContain('jwks       FAILED: unreachable');
      expect(doctor.stdout).toContain('records    waiting 1');
      expect(doctor.stdout + doctor.stderr).not.toContain(workspace.apiKey);
      expect(down.stderrLeaks()).toEqual([]);
    } finally {
      await down.close().catch(() => undefined);
    }
  }, 120_000);

  it('no spawned process wrote a key, link, token or answer to stderr', () => {
    expect(h.stderrLeaks()).toEqual([]);
  });
});
