import { createSessClient, type SessClient } from '@sess/client';
import { createEgress } from '@sess/core/egress';
import { createTestLogger, createWorkspaceWithKey, recordSecret, TEST_SECRET } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { startWebhookWorker } from '@sess/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from './support.ts';

let app: AppServer;
let receiver: Receiver;
let client: SessClient;
let other: SessClient;

beforeAll(async () => {
  app = await startAppServer();
  receiver = await startReceiver();
  const mine = await createWorkspaceWithKey(app.database.db);
  const theirs = await createWorkspaceWithKey(app.database.db);
  client = createSessClient({ origin: app.url, apiKey: mine.apiKey });
  other = createSessClient({ origin: app.url, apiKey: theirs.apiKey });
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

describe('/v1/webhooks', () => {
  it('registers, lists, sends a test event the client verifies, shows the log, rotates and removes', async () => {
    const created = await client.webhooks.create({ url: receiver.url, eventTypes: ['answered', 'closed'] });
    recordSecret(created.data.secret, 'response-secret');
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ url: receiver.url, eventTypes: ['answered', 'closed'], disabledAt: null });
    const id = created.data.id;
    expect((await client.webhooks.list()).data.webhooks.map((w) => w.id)).toEqual([id]);
    expect(JSON.stringify((await client.webhooks.list()).data)).not.toContain(created.data.secret);
    expect((await other.webhooks.list()).data.webhooks).toEqual([]);

    const sent = await client.webhooks.test(id);
    expect(sent.status).toBe(202);
    const worker = startWebhookWorker({
      database: app.database,
      secret: TEST_SECRET,
      egress: createEgress({ policy: 'loopback-only' }),
      logger: createTestLogger(),
      now: app.clock.now,
      background: false,
    });
    try {
      expect(await worker.runOnce()).toBe(1);
    } finally {
      await worker.close();
    }
    const [request] = receiver.received;
    expect(request!.headers['webhook-id']).toBe(sent.data.eventId);
    // The receiver's check runs on its own clock: the app's test clock is the real time here.
    await expect(
      client.webhooks.verify(request!.body, request!.headers as Record<string, string>, created.data.secret),
    ).resolves.toMatchObject({
      type: 'test',
    });

    const log = await client.webhooks.deliveries(id);
    expect(log.data.deliveries).toEqual([
      expect.objectContaining({ eventId: sent.data.eventId, eventType: 'test', status: 'delivered', attempts: 1 }),
    ]);
    expect(log.data.deliveries[0]!.lastAttempts).toEqual([expect.objectContaining({ status: 204, error: null })]);

    const rotated = await client.webhooks.rotateSecret(id);
    recordSecret(rotated.data.secret, 'response-secret');
    expect(rotated.data.secret).not.toBe(created.data.secret);
    expect((await client.webhooks.list()).data.webhooks[0]!.previousSecretUntil).toBe(rotated.data.previousSecretUntil);

    await expect(other.webhooks.delete(id)).rejects.toMatchObject({ kind: 'api', code: 'NOT_FOUND' });
    expect((await client.webhooks.delete(id)).data).toEqual({ id, deleted: true });
    expect((await client.webhooks.list()).data.webhooks).toEqual([]);
  });

  it('a repeated create or rotation with the same Idempotency-Key replays its answer: one endpoint, one new secret', async () => {
    const first = await client.webhooks.create({ url: receiver.url }, { idempotencyKey: 'hook-create-1' });
    recordSecret(first.data.secret, 'response-secret');
    const again = await client.webhooks.create({ url: receiver.url }, { idempotencyKey: 'hook-create-1' });
    expect(again.data).toEqual(first.data);
    expect((await client.webhooks.list()).data.webhooks.filter((w) => w.id === first.data.id)).toHaveLength(1);
    await expect(
      client.webhooks.create({ url: `${receiver.url}/other` }, { idempotencyKey: 'hook-create-1' }),
    ).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    const rotated = await client.webhooks.rotateSecret(first.data.id, { idempotencyKey: 'hook-rotate-1' });
    recordSecret(rotated.data.secret, 'response-secret');
    expect((await client.webhooks.rotateSecret(first.data.id, { idempotencyKey: 'hook-rotate-1' })).data).toEqual(rotated.data);
    await client.webhooks.delete(first.data.id);
  });

  it('refuses a private address with WEBHOOK_URL_REFUSED and the pointer /url; an unknown event type with INVALID_ARGUMENTS', async () => {
    await expect(client.webhooks.create({ url: 'http://10.0.0.7/hook' })).rejects.toMatchObject({
      kind: 'api',
      code: 'WEBHOOK_URL_REFUSED',
      field: '/url',
      status: 400,
    });
    await expect(client.webhooks.create({ url: receiver.url, eventTypes: ['nonsense' as 'answered'] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/eventTypes/0',
    });
  });
});
