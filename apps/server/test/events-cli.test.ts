import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { startEventWorker } from '@sess/events';
import { createFormsRuntime, createSession, submitLinkAnswer } from '@sess/forms';
import { createTestLogger, createWorkspaceWithKey, sampleSurface, TEST_SECRET, tokenOf } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEventsExport, runEventsVerify } from '../src/commands/events.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';

/*
 * `sess events export` (a workspace's chain from /v1, as JSON Lines) and `sess events verify`
 * (the chain checked offline): an export verifies, and a changed, removed or moved line is named.
 */

let server: AppServer;
const dir = mkdtempSync(join(tmpdir(), 'sess-events-'));

function io(env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  return {
    io: { stdin: Readable.from([]), stdout, stderr, env: { PUBLIC_URL: server.url, ...env } },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.close());

describe('sess events', () => {
  it('exports a workspace’s chain that verifies; an edit or a removal is caught at its line', async () => {
    const workspace = await createWorkspaceWithKey(server.database.db, { plan: 'pro' });
    const runtime = createFormsRuntime({
      database: server.database,
      publicUrl: server.url,
      secret: TEST_SECRET,
      logger: createTestLogger(),
      now: server.clock.now,
    });
    for (let i = 0; i < 3; i++) {
      const created = await createSession({
        ctx: { runtime, workspaceId: workspace.workspaceId },
        input: { interaction: sampleSurface() },
      });
      const answered = await submitLinkAnswer(runtime, tokenOf(created.humanUrl), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'ok' },
      });
      expect(answered.ok).toBe(true);
    }
    await runtime.close();
    const sealer = startEventWorker({ database: server.database, logger: createTestLogger(), background: false });
    await sealer.runOnce();
    await sealer.close();

    const file = join(dir, 'events.jsonl');
    const exported = io({ SESS_API_KEY: workspace.apiKey });
    expect(await runEventsExport(['--since', '2000-01-01T00:00:00Z', '--out', file], exported.io)).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(6);

    const verified = io();
    expect(await runEventsVerify([file], verified.io)).toBe(0);
    expect(verified.out()).toMatch(/^ok: 6 event\(s\), seq 1–6, unbroken; last hash [0-9a-f]{64}\n$/);

    const edited = join(dir, 'edited.jsonl');
    writeFileSync(
      edited,
      lines.map((line, i) => (i === 2 ? line.replace(/"type":"[a-z]+"/, '"type":"withdrawn"') : line)).join('\n'),
    );
    const caught = io();
    expect(await runEventsVerify([edited], caught.io)).toBe(1);
    expect(caught.err()).toContain('line 3 (seq 3): its hash does not match its fields');

    const removed = join(dir, 'removed.jsonl');
    writeFileSync(removed, lines.filter((_, i) => i !== 1).join('\n'));
    const gap = io();
    expect(await runEventsVerify([removed], gap.io)).toBe(1);
    expect(gap.err()).toContain('line 2 (seq 3): its seq does not follow');
  });

  it('refuses an export without a key, or one Sess refuses, saying why', async () => {
    await expect(runEventsExport(['--since', '2000-01-01T00:00:00Z'], io().io)).rejects.toThrow('SESS_API_KEY');
    const refused = io({ SESS_API_KEY: 'sess_live_not_a_key' });
    expect(await runEventsExport(['--since', '2000-01-01T00:00:00Z'], refused.io)).toBe(1);
    expect(refused.err()).toContain('the export was refused');
  });
});
