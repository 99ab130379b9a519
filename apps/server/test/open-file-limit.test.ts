import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, freePort, recordSecret, sampleSurface, type TestDatabase } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';
import { type CliProcess, runCli, startCli } from './support/cli-process.ts';
import { openIdleConnection, type RawResponse, requestOnOwnConnection } from './support/raw-http.ts';

/*
 * `sess serve` under `ulimit -n 512` (issue 33: at its open-file limit every new connection was
 * accepted and reset). It says its limit and what that allows; parked waits fill what it allows,
 * idle connections push it past the point where waits are let go; then the person's page,
 * /healthz and a create on new connections are still answered, and parked waits answered
 * `waiting` early (the rest, still parked, get the answer). The real CLI in a child process.
 */

const SLOW = { timeout: 180_000 };

describe('sess serve with 512 open files', () => {
  let database: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  let serve: CliProcess | undefined;
  let base: string;
  const idle: Socket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'sess-nofile-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      PUBLIC_URL: base,
      SESS_DATA_DIR: dataDir,
      SESS_NOTIFICATIONS: 'off',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
  });
  afterAll(async () => {
    for (const socket of idle) socket.destroy();
    if (serve) {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'says its limit; with more waits than it holds, none is reset, the page, health and a create are answered, and waits answer waiting early',
    SLOW,
    async () => {
      const user = await runCli(['user', 'create', '--email', 'limits@sess.test'], env, 'a long enough password 1\n');
      const workspaceId = /with workspace (\S+)\./.exec(user.stdout)?.[1];
      expect(workspaceId).toBeDefined();
      const apiKey = (await runCli(['api-key', 'create', '--workspace', workspaceId!, '--name', 'limits'], env)).stdout.trim();
      recordSecret(apiKey, 'api-key');

      serve = startCli(['serve'], env, undefined, [], { openFiles: 512 });
      // 512 files: 139 kept for the process (a quarter, the pool of 10 and LISTEN), 373 connections,
      // waits let go from 336 on, 299 parked waits at most.
      await serve.waitFor(/^Open files: 512 \(up to 373 connections, 299 parked waits\)$/m, 120_000);

      const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
      const create = () =>
        requestOnOwnConnection(`${base}/v1/sessions`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
          body: JSON.stringify({ interaction: sampleSurface(), expires_in: 3600 }),
        });
      const created = await create();
      expect(created.status).toBe(201);
      const session = JSON.parse(created.text) as { sessionId: string; humanUrl: string };

      // More waits than 512 files can hold, opened 40 at a time: each is answered — parked, or
      // refused 503 once 299 are parked — and none is reset. Connections are accepted in the order
      // they were opened, so once /healthz after a batch is answered, the batch was taken in.
      const early: RawResponse[] = [];
      const failures: unknown[] = [];
      const waits: Array<Promise<RawResponse | undefined>> = [];
      for (let batch = 0; batch < 13; batch++) {
        for (let i = 0; i < 40; i++) {
          waits.push(
            requestOnOwnConnection(`${base}/v1/sessions/${session.sessionId}?wait_ms=45000`, { headers }).then(
              (response) => {
                if (response.status === 200 && JSON.parse(response.text).state === 'waiting') early.push(response);
                return response;
              },
              (error: unknown) => {
                failures.push(error);
                return undefined;
              },
            ),
          );
        }
        expect((await requestOnOwnConnection(`${base}/healthz`)).status).toBe(200);
      }

      // 60 idle connections take the process past 336 open: from there each lets the oldest wait go.
      for (let i = 0; i < 60; i++) idle.push(await openIdleConnection(Number(new URL(base).port)));
      const page = await requestOnOwnConnection(session.humanUrl);
      expect(page.status).toBe(200);
      expect(page.headers.connection).toBe('close');
      expect((await requestOnOwnConnection(`${base}/healthz`)).status).toBe(200);
      expect((await requestOnOwnConnection(`${base}/readyz`)).status).toBe(200);
      expect((await create()).status).toBe(201);
      await expect.poll(() => early.length).toBeGreaterThan(0);
      for (const response of early) expect(response.headers.connection).toBe('close');

      // The person answers: every wait still parked gets the answer (none had reached its deadline).
      for (const socket of idle.splice(0)) socket.destroy();
      expect((await answerOnPage(session.humanUrl, { message: 'ok' })).status).toBe(303);
      const all = await Promise.all(waits);
      expect(failures).toEqual([]);
      const refused = all.filter((response) => response?.status === 503);
      for (const response of refused) {
        expect(response!.headers['retry-after']).toBe('5');
        expect(JSON.parse(response!.text)).toMatchObject({ error: { code: 'SESS_UNAVAILABLE', reason: 'busy' } });
      }
      const answered = all.filter((response) => response?.status === 200 && JSON.parse(response.text).state === 'answered');
      expect(refused.length + early.length + answered.length).toBe(520);
      expect(answered.length).toBeGreaterThan(0);
      expect(serve.stderr()).not.toMatch(/EMFILE/);
    },
  );
});
