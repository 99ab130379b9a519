import { createApiKey } from '@sess/accounts';
import { newId } from '@sess/core';
import { memberships, queryRows } from '@sess/db';
import { API_KEY_NOTICES_TTL_MS, DEFAULT_SETTINGS, type NotificationWorker, saveSettings } from '@sess/notify';
import { createTestUser, recordSecret, sampleAskArguments, sampleSurface, signInTestUser, type TestUser } from '@sess/testkit';
import { type ReceivedPush, startPushService, type TestPushService } from '@sess/testkit/push-service';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactionOf, startStdioHarness } from '../../stdio/test/support/stdio-harness.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { notifyThisDevice, startTestWorker } from './support/notify-device.ts';

/*
 * Forms made through /v1 with a workspace API key (sess-mcp, the OpenClaw plugin, any client):
 * the workspace's owners who chose "API key forms" are told, in the create's transaction; the
 * create says `notified`. The real app, devices saved through the notifications page against the
 * loopback RFC 8030 push service, and @sess/notify's worker driven with runOnce.
 */

type DevicePush = { kind: string; title: string; url: string };
const payloadOf = (push: ReceivedPush) => push.payload as DevicePush;

let server: AppServer;
let push: TestPushService;
let worker: NotificationWorker;

beforeAll(async () => {
  push = await startPushService();
  server = await startAppServer();
  worker = startTestWorker(server);
});
afterAll(async () => {
  await worker?.close();
  await server?.close();
  await push?.close();
});

/** A person with an account and one device that takes pushes. */
async function withDevice(): Promise<{ user: TestUser; device: string }> {
  const user = await createTestUser(server.database.db);
  const { cookie } = await signInTestUser(server.database.db, user.userId);
  return { user, device: await notifyThisDevice(server.url, cookie, push) };
}

/** A real API key of the workspace. */
async function apiKeyOf(user: TestUser): Promise<string> {
  const made = await createApiKey({
    ctx: { db: server.database.db, now: server.clock.now },
    input: { workspaceId: user.workspaceId, name: 'headless agent', createdBy: user.userId },
  });
  recordSecret(made.key, 'api-key');
  return made.key;
}

/** The person chooses "API key forms"; the server's cached answer lapses (the documented delay). */
async function optIn(user: TestUser): Promise<void> {
  await saveSettings(server.database.db, user.userId, { ...DEFAULT_SETTINGS, apiKeyForms: true }, server.clock.now());
  server.clock.advance(API_KEY_NOTICES_TTL_MS);
}

async function createV1(key: string, title: string, idempotencyKey = newId('session')) {
  const response = await fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ interaction: sampleSurface(title) }),
  });
  const body = (await response.json()) as { sessionId: string; humanUrl: string; notified: boolean };
  if (body.humanUrl) recordSecret(body.humanUrl, 'link');
  return { status: response.status, body };
}

async function outboxRows(where: { userId?: string; sessionId?: string }): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    server.database.db,
    sql`select count(*)::int as n from notification_outbox
         where (${where.userId ?? null}::text is null or user_id = ${where.userId ?? null})
           and (${where.sessionId ?? null}::text is null or session_id = ${where.sessionId ?? null})`,
  );
  return Number(row?.n ?? 0);
}

describe('Web Push for forms made through /v1 with an API key', () => {
  it('an owner who did not choose API-key forms is not told: 201, notified false, no outbox row', async () => {
    const { user, device } = await withDevice();
    const key = await apiKeyOf(user);
    const created = await createV1(key, 'Merge the branch?');
    expect(created.status).toBe(201);
    expect(created.body.notified).toBe(false);
    expect(await outboxRows({ sessionId: created.body.sessionId })).toBe(0);
    expect(await worker.runOnce()).toBe(0);
    expect(push.received(device)).toEqual([]);
  });

  it('once the owner chose so (within the cache’s few seconds), the create says notified and the push carries the link', async () => {
    const { user, device } = await withDevice();
    // A plan without an open-session limit: the create that tells nobody is the one-statement path.
    await server.database.db.execute(sql`update workspaces set plan = 'enterprise' where id = ${user.workspaceId}`);
    const key = await apiKeyOf(user);
    expect((await createV1(key, 'Before')).body.notified).toBe(false);

    await optIn(user);
    const created = await createV1(key, 'Rotate the keys?');
    expect(created.status).toBe(201);
    expect(created.body.notified).toBe(true);
    expect(push.received(device)).toEqual([]); // sent after commit, by the worker
    expect(await worker.runOnce()).toBe(1);
    const pushes = push.received(device);
    expect(pushes.map(payloadOf)).toMatchObject([{ kind: 'form', title: 'Rotate the keys?', url: created.body.humanUrl }]);
    expect(pushes[0]!.urgency).toBe('high');
  });

  it('an idempotent replay answers the same and tells the owner once', async () => {
    const { user, device } = await withDevice();
    await optIn(user);
    const key = await apiKeyOf(user);
    const idempotencyKey = newId('session');
    const first = await createV1(key, 'Ship it?', idempotencyKey);
    const again = await createV1(key, 'Ship it?', idempotencyKey);
    expect(first.status).toBe(201);
    expect(again).toEqual(first);
    expect(first.body.notified).toBe(true);
    expect(await outboxRows({ sessionId: first.body.sessionId })).toBe(1);
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect(push.received(device)).toHaveLength(1);
  });

  it('a member who is not an owner is never told, even when they chose API-key forms', async () => {
    const owner = await withDevice();
    const member = await withDevice();
    await server.database.db
      .insert(memberships)
      .values({ id: newId('membership'), workspaceId: owner.user.workspaceId, userId: member.user.userId, role: 'member' });
    await optIn(member.user);
    const key = await apiKeyOf(owner.user);

    const alone = await createV1(key, 'Only the member chose');
    expect(alone.body.notified).toBe(false);
    expect(await outboxRows({ userId: member.user.userId })).toBe(0);

    await optIn(owner.user);
    const both = await createV1(key, 'Both chose');
    expect(both.body.notified).toBe(true);
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(owner.device).map(payloadOf)).toMatchObject([{ title: 'Both chose', url: both.body.humanUrl }]);
    expect(await outboxRows({ userId: member.user.userId })).toBe(0);
    expect(push.received(member.device)).toEqual([]);
  });

  it('an Ask made through /v1 tells no one of its link', async () => {
    const { user, device } = await withDevice();
    await optIn(user);
    const key = await apiKeyOf(user);
    const response = await fetch(`${server.url}/v1/asks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': newId('session') },
      body: JSON.stringify(sampleAskArguments({ max: 2 })),
    });
    expect(response.status).toBe(201);
    const ask = (await response.json()) as { askId: string };
    expect(await outboxRows({ sessionId: ask.askId })).toBe(0);
    expect(await worker.runOnce()).toBe(0);
    expect(push.received(device)).toEqual([]);
  });

  it('sess-mcp over /v1: sess_request says interaction.notified true, and the push carries its link', async () => {
    const { user, device } = await withDevice();
    await optIn(user);
    const key = await apiKeyOf(user);
    const harness = await startStdioHarness({ server });
    try {
      harness.secret(key);
      const mcp = await harness.spawn(harness.env(key));
      const created = interactionOf(await mcp.call('sess_request', { interaction: sampleSurface('Approve the invoice?') }));
      expect(created).toMatchObject({ state: 'waiting', notified: true });
      harness.link(created.humanUrl!);
      expect(await worker.runOnce()).toBe(1);
      expect(push.received(device).map(payloadOf)).toMatchObject([{ title: 'Approve the invoice?', url: created.humanUrl }]);
      await mcp.close();
      expect(harness.stderrLeaks()).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
