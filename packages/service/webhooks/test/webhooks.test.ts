import { verifyWebhook } from '@sess/client';
import { verifyEventChain } from '@sess/core';
import { createEgress, type Egress } from '@sess/core/egress';
import { openDatabase, queryRows } from '@sess/db';
import { readJwks, submitLinkAnswer } from '@sess/forms';
import { createLocalKeySet } from '@sess/receipts';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestLogger,
  createTestSession,
  createWorkspace,
  recordSecret,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestClock,
  type TestDatabase,
} from '@sess/testkit';
import {
  claimDue,
  createWebhookSealer,
  createWebhooksApi,
  fanOut,
  sendDelivery,
  startWebhookWorker,
  sweepDeliveries,
  type WebhookWorker,
} from '@sess/webhooks';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, sealEvents, startReceiver } from './support.ts';

let database: TestDatabase;
let receiver: Receiver;
let egress: Egress;
const workers: WebhookWorker[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  egress = createEgress({ policy: 'loopback-only' });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
  // Workers claim every workspace's due deliveries: each test starts with none left over.
  await database.db.execute(sql`delete from webhook_endpoints`);
  receiver.received.splice(0);
});
afterAll(async () => {
  egress.close();
  await receiver.close();
  await database.destroy();
});

/** A workspace with a forms runtime, a registration API and a worker on one hand-moved clock. */
async function setUp(options: { timeoutMs?: number } = {}) {
  const clock: TestClock = createTestClock(new Date());
  const { workspaceId } = await createWorkspace(database.db);
  const runtime = createTestFormsRuntime(database, { now: clock.now });
  const api = createWebhooksApi({ db: database.db, secret: TEST_SECRET, policy: 'loopback-only', now: clock.now });
  const worker = startWebhookWorker({
    database,
    secret: TEST_SECRET,
    egress,
    logger: createTestLogger(),
    now: clock.now,
    background: false,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  workers.push(worker);
  const register = async (eventTypes?: string[]) => {
    const created = await api.create(workspaceId, { url: receiver.url, ...(eventTypes ? { eventTypes } : {}) });
    recordSecret(created.secret, 'response-secret');
    return created;
  };
  const newForm = async () => {
    const form = await createTestSession(runtime, workspaceId);
    await sealEvents(database);
    return form;
  };
  return { clock, workspaceId, runtime, api, worker, register, newForm };
}

async function deliveryRows(endpointId: string) {
  return queryRows<{ event_type: string; status: string; attempts: number }>(
    database.db,
    sql`select event_type, status, attempts from webhook_deliveries where endpoint_id = ${endpointId} order by created_at, id`,
  );
}

describe('delivery', () => {
  it('POSTs a sealed event, signed so verifyWebhook takes it; webhook-id is the event id', async () => {
    const { clock, workspaceId, register, newForm, worker } = await setUp();
    const endpoint = await register();
    const form = await newForm();

    expect(await worker.runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const event = await verifyWebhook(request!.body, request!.headers as Record<string, string>, endpoint.secret, {
      now: clock.now,
    });
    expect(event).toMatchObject({ type: 'created', data: { workspaceId, sessionId: form.sessionId, seq: 1, type: 'created' } });
    expect(request!.headers['webhook-id']).toBe((event.data as { id: string }).id);
    // The event as delivered is the chained one: its fields hash to its hash, as an export's line does.
    expect(verifyEventChain([JSON.stringify(event.data)])).toMatchObject({ ok: true, events: 1 });
    expect(request!.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(await deliveryRows(endpoint.id)).toEqual([{ event_type: 'created', status: 'delivered', attempts: 1 }]);

    // A wrong secret, an altered body and an old timestamp are refused.
    const headers = request!.headers as Record<string, string>;
    await expect(
      verifyWebhook(request!.body, headers, 'whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==', { now: clock.now }),
    ).rejects.toMatchObject({
      reason: 'BAD_SIGNATURE',
    });
    await expect(
      verifyWebhook(request!.body.replace('created', 'expired'), headers, endpoint.secret, { now: clock.now }),
    ).rejects.toMatchObject({
      reason: 'BAD_SIGNATURE',
    });
    clock.advance(6 * 60_000);
    await expect(verifyWebhook(request!.body, headers, endpoint.secret, { now: clock.now })).rejects.toMatchObject({
      reason: 'STALE_TIMESTAMP',
    });
  });

  it('an answered event carries the receipt (which verifies), never the answer values', async () => {
    const { clock, workspaceId, runtime, register, newForm, worker } = await setUp();
    const endpoint = await register(['answered']);
    const form = await newForm();
    const answer = await submitLinkAnswer(runtime, form.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'Ship it now' },
    });
    if (!answer.ok) throw new Error('the answer was not accepted');
    await sealEvents(database);

    expect(await worker.runOnce()).toBe(1);
    const [request] = receiver.received;
    expect(request!.body).not.toContain('Ship it now');
    const keys = await createLocalKeySet(await readJwks(runtime));
    const event = await verifyWebhook(request!.body, request!.headers as Record<string, string>, endpoint.secret, {
      now: clock.now,
      receipts: { keys, issuer: TEST_PUBLIC_URL },
    });
    expect(event).toMatchObject({
      type: 'answered',
      data: { workspaceId, sessionId: form.sessionId, responseEventId: answer.eventId, receipt: expect.any(String) },
    });
    // A receipt of another answer under a valid signature is refused.
    const other = JSON.parse(request!.body) as { data: { responseEventId: string } };
    other.data.responseEventId = 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa';
    const body = JSON.stringify(other);
    const { signWebhook } = await import('@sess/core');
    const id = request!.headers['webhook-id'] as string;
    const ts = Number(request!.headers['webhook-timestamp']);
    await expect(
      verifyWebhook(
        body,
        { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(endpoint.secret, id, ts, body) },
        endpoint.secret,
        {
          now: clock.now,
          receipts: { keys, issuer: TEST_PUBLIC_URL },
        },
      ),
    ).rejects.toMatchObject({ code: 'VERIFICATION_FAILED' });
  });

  it('retries after a 500 and after a timeout, with the same webhook-id, then delivers', async () => {
    const { clock, register, newForm, worker } = await setUp({ timeoutMs: 300 });
    const endpoint = await register();
    await newForm();
    receiver.next({ status: 500 }, 'hang');

    await worker.runOnce();
    expect(await deliveryRows(endpoint.id)).toEqual([{ event_type: 'created', status: 'pending', attempts: 1 }]);
    expect(await worker.runOnce()).toBe(0); // not due yet
    clock.advance(60_000);
    await worker.runOnce(); // the receiver does not answer: a timeout
    clock.advance(2 * 60_000);
    await worker.runOnce();

    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(await deliveryRows(endpoint.id)).toEqual([{ event_type: 'created', status: 'delivered', attempts: 3 }]);
    const log = await createWebhooksApi({ db: database.db, secret: TEST_SECRET, policy: 'loopback-only' }).deliveries(
      (await deliveryOwner(endpoint.id)).workspace_id,
      endpoint.id,
    );
    expect(log.deliveries[0]!.lastAttempts.map((a) => [a.status, a.error])).toEqual([
      [500, 'http_status'],
      [null, 'timeout'],
      [204, null],
    ]);
  });

  it('does not follow a 3xx: the redirect target is never asked, the delivery is retried', async () => {
    const { register, newForm, worker } = await setUp();
    const endpoint = await register();
    await newForm();
    receiver.next({ status: 302, headers: { location: `${receiver.url}/elsewhere` } });

    await worker.runOnce();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks/sess']);
    expect(await deliveryRows(endpoint.id)).toEqual([{ event_type: 'created', status: 'pending', attempts: 1 }]);
  });

  it('a 410 disables the endpoint: its pending deliveries are dropped and no new event is handed to it', async () => {
    const { workspaceId, api, register, newForm, worker } = await setUp();
    const endpoint = await register();
    await newForm();
    receiver.next({ status: 410 });
    await worker.runOnce();

    const [view] = (await api.list(workspaceId)).webhooks;
    expect(view).toMatchObject({ id: endpoint.id, disabledReason: 'gone', disabledAt: expect.any(String) });
    await newForm();
    await worker.runOnce();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryRows(endpoint.id)).toEqual([{ event_type: 'created', status: 'dropped', attempts: 1 }]);
  });

  it('after a rotation both secrets sign for 24 hours; then only the new one', async () => {
    const { clock, workspaceId, api, register, newForm, worker } = await setUp();
    const endpoint = await register();
    const rotated = await api.rotate(workspaceId, endpoint.id);
    recordSecret(rotated.secret, 'response-secret');
    await newForm();
    await worker.runOnce();
    const [during] = receiver.received;
    expect((during!.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret])
      await expect(
        verifyWebhook(during!.body, during!.headers as Record<string, string>, secret, { now: clock.now }),
      ).resolves.toBeDefined();

    clock.advance(24 * 60 * 60_000 + 1000);
    await newForm();
    await worker.runOnce();
    const after = receiver.received[1]!;
    expect((after.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    await expect(
      verifyWebhook(after.body, after.headers as Record<string, string>, rotated.secret, { now: clock.now }),
    ).resolves.toBeDefined();
    await expect(
      verifyWebhook(after.body, after.headers as Record<string, string>, endpoint.secret, { now: clock.now }),
    ).rejects.toMatchObject({
      reason: 'BAD_SIGNATURE',
    });
  });

  it('at least once: a crash between the send and its settle sends again after the lease, same webhook-id', async () => {
    const { clock, register, newForm, worker } = await setUp();
    const endpoint = await register();
    await newForm();
    await fanOut(database.db, clock.now());
    // A worker that claims and sends, then dies before recording it.
    const claimed = await claimDue(database.db, { at: clock.now(), leaseMs: 60_000, batch: 10 });
    expect(claimed).toHaveLength(1);
    const sent = await sendDelivery(
      { egress, sealer: createWebhookSealer(TEST_SECRET), logger: createTestLogger(), timeoutMs: 10_000 },
      claimed[0]!,
      clock.now(),
    );
    expect(sent.end).toEqual({ end: 'delivered' });

    expect(await worker.runOnce()).toBe(0); // still leased
    clock.advance(61_000);
    expect(await worker.runOnce()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(await deliveryRows(endpoint.id)).toEqual([{ event_type: 'created', status: 'delivered', attempts: 2 }]);
  });

  it('sends nothing of another workspace’s events, and only the types an endpoint wants', async () => {
    const mine = await setUp();
    const theirs = await setUp();
    const endpoint = await mine.register(['answered']);
    await theirs.newForm();
    await mine.newForm();
    await mine.worker.runOnce();
    expect(receiver.received).toEqual([]);
    expect(await deliveryRows(endpoint.id)).toEqual([]);
  });

  it('sends a test event on request', async () => {
    const { clock, workspaceId, api, register, worker } = await setUp();
    const endpoint = await register();
    const sent = await api.sendTest(workspaceId, endpoint.id);
    await worker.runOnce();
    const [request] = receiver.received;
    expect(request!.headers['webhook-id']).toBe(sent.eventId);
    const event = await verifyWebhook(request!.body, request!.headers as Record<string, string>, endpoint.secret, {
      now: clock.now,
    });
    expect(event).toMatchObject({ type: 'test', data: { endpointId: endpoint.id } });
  });
});

describe('replicas and housekeeping', () => {
  it('two workers at once (two replicas) hand out and deliver each event once', async () => {
    const { register, runtime, workspaceId, clock } = await setUp();
    const endpoint = await register();
    for (let i = 0; i < 6; i += 1) await createTestSession(runtime, workspaceId);
    await sealEvents(database);
    // On PostgreSQL the second worker has connections of its own, as another replica would.
    const second = database.url ? await openDatabase({ url: database.url, poolMax: 4 }) : database;
    try {
      const other = startWebhookWorker({
        database: second,
        secret: TEST_SECRET,
        egress,
        logger: createTestLogger(),
        now: clock.now,
        background: false,
      });
      workers.push(other);
      const [a, b] = await Promise.all([workers[0]!.runOnce(), other.runOnce()]);
      expect(a + b).toBe(6);
    } finally {
      if (second !== database)
        await workers
          .pop()!
          .close()
          .then(() => second.close());
    }
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(6);
    expect((await deliveryRows(endpoint.id)).map((row) => [row.status, row.attempts])).toEqual(Array(6).fill(['delivered', 1]));
  });

  it('the sweep drops ended deliveries after 30 days and keeps pending ones', async () => {
    const { clock, register, newForm, worker } = await setUp();
    const endpoint = await register();
    await newForm();
    await worker.runOnce();
    receiver.next({ status: 503 });
    clock.advance(1000);
    await newForm();
    await worker.runOnce();
    expect((await deliveryRows(endpoint.id)).map((row) => row.status)).toEqual(['delivered', 'pending']);
    clock.advance(31 * 24 * 60 * 60_000);
    expect(await sweepDeliveries(database.db, clock.now())).toEqual({ deliveries: 1 });
    expect((await deliveryRows(endpoint.id)).map((row) => row.status)).toEqual(['pending']);
  });
});

describe('registration', () => {
  it('refuses a private address and plain http under the public policy, naming /url', async () => {
    const { workspaceId } = await createWorkspace(database.db);
    const api = createWebhooksApi({ db: database.db, secret: TEST_SECRET, policy: 'public' });
    for (const [url, reason] of [
      ['https://10.1.2.3/hook', 'private_address'],
      ['https://127.0.0.1/hook', 'private_address'],
      ['https://[::1]/hook', 'private_address'],
      ['https://localhost/hook', 'private_address'],
      ['http://example.com/hook', 'not_https'],
      ['https://user:pw@example.com/hook', 'credentials'],
      ['not a url', 'not_a_url'],
    ] as const)
      await expect(api.create(workspaceId, { url })).rejects.toMatchObject({
        code: 'WEBHOOK_URL_REFUSED',
        details: { field: '/url', reason },
      });
    expect((await api.list(workspaceId)).webhooks).toEqual([]);
    const created = await api.create(workspaceId, { url: 'https://hooks.example.com/sess' });
    recordSecret(created.secret, 'response-secret');
    expect(created.secret).toMatch(/^whsec_/);
  });

  it('another workspace’s endpoint is not found', async () => {
    const { register } = await setUp();
    const endpoint = await register();
    const { workspaceId: other } = await createWorkspace(database.db);
    const api = createWebhooksApi({ db: database.db, secret: TEST_SECRET, policy: 'loopback-only' });
    await expect(api.remove(other, endpoint.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(api.rotate(other, endpoint.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(api.deliveries(other, endpoint.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

async function deliveryOwner(endpointId: string) {
  const [row] = await queryRows<{ workspace_id: string }>(
    database.db,
    sql`select workspace_id from webhook_endpoints where id = ${endpointId}`,
  );
  return row!;
}
