import { createEgress } from '@sess/core/egress';
import { notificationOutbox } from '@sess/db';
import {
  DELIVERY_GATE_DEFAULTS,
  type NotificationWorker,
  parsePushTarget,
  saveDevice,
  startNotificationWorker,
} from '@sess/notify';
import { noticeTexts } from '@sess/notify-pages';
import { createTestLogger } from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { type SmtpSink, startSmtpSink } from '@sess/testkit/smtp-sink';
import { startHangingPushService, startStalledSmtpServer } from '@sess/testkit/stalled-services';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createNotifiedForm,
  createNotifyFixture,
  createPerson,
  type NotifyFixture,
  outboxRows,
  TEST_SECRET,
  VAPID_SUBJECT,
} from './notify-fixture.ts';

/*
 * One person's slow push service (or a stalled mail server) must not delay anyone else's
 * notification (issue 32): the worker handles rows each on its own, and every send goes through
 * its service's gate (delivery-gate.ts). Sends here are bounded by a minute, so nothing times out
 * during a test: a notification that arrives while sends hang did not wait for them.
 */

const HUNG = 30;
const { concurrency, failureThreshold, coolDownMs, busyRetryMs } = DELIVERY_GATE_DEFAULTS;

let fixture: NotifyFixture;
let push: TestPushService;
let sink: SmtpSink;
const workers: NotificationWorker[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  fixture = await createNotifyFixture();
  push = await startPushService();
  sink = await startSmtpSink();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
  // Each test starts from an empty outbox: rows one left rescheduled are not the next one's.
  await fixture.database.db.delete(notificationOutbox);
});
afterAll(async () => {
  await push.close();
  await sink.close();
  await fixture.close();
});

/** The worker's log events, as they are written, with waits for a count of one. */
function logEvents() {
  const events: string[] = [];
  const waiters = new Set<() => void>();
  return {
    destination: {
      write(line: string) {
        events.push((JSON.parse(line) as { event?: string }).event ?? '');
        for (const waiter of waiters) waiter();
      },
    },
    count: (event: string) => events.filter((e) => e === event).length,
    waitFor(event: string, count: number, timeoutMs = 10_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.filter((e) => e === event).length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${event}: fewer than ${count} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

function worker(options: { smtpUrl?: string; log?: ReturnType<typeof logEvents> } = {}) {
  const started = startNotificationWorker({
    database: fixture.database,
    secret: TEST_SECRET,
    logger: createTestLogger(options.log ? { level: 'debug', destination: options.log.destination } : {}),
    now: fixture.clock.now,
    vapidSubject: VAPID_SUBJECT,
    egress: createEgress({ policy: 'loopback-only' }),
    texts: noticeTexts,
    background: false,
    timeoutMs: 60_000,
    leaseMs: 180_000,
    ...(options.smtpUrl ? { mail: { smtpUrl: options.smtpUrl, from: 'Sess <notify@sess.test>' } } : {}),
  });
  workers.push(started);
  return started;
}

/** A person whose one device is a subscription `subscription` made (as the account page saves it). */
async function personWithDevice(subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  const person = await createPerson(fixture.database);
  await saveDevice(fixture.database.db, fixture.sealers, {
    userId: person.userId,
    target: parsePushTarget(subscription, { policy: 'loopback-only' }),
    name: 'Test phone',
    now: fixture.clock.now(),
  });
  return person;
}

type Subscriber = {
  person: Awaited<ReturnType<typeof createPerson>>;
  device: Awaited<ReturnType<typeof addDevice>>;
  form: Awaited<ReturnType<typeof createNotifiedForm>>;
};

/** The outbox rows of `forms`, by attempts: `{ attempts: rows }`. */
async function attemptsOf(forms: { sessionId: string }[]) {
  const rows = (await Promise.all(forms.map((form) => outboxRows(fixture.database, form.sessionId)))).flat();
  const counts: Record<number, number> = {};
  for (const row of rows) counts[row.attempts] = (counts[row.attempts] ?? 0) + 1;
  return { counts, rows };
}

describe('one slow service does not hold anyone else’s notification', () => {
  it('30 forms to a push service that never answers, then one to a healthy one: the healthy push arrives while all of those hang, and the hung service gets no more than its bound', async () => {
    const hung = await startHangingPushService();
    closers.push(() => hung.close());
    const stuck = [];
    for (let i = 0; i < HUNG; i++) stuck.push(await createNotifiedForm(fixture, await personWithDevice(hung.subscribe())));
    const healthy = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, healthy.userId);
    const form = await createNotifiedForm(fixture, healthy); // claimed last: it was enqueued last
    const log = logEvents();

    const run = worker({ log }).runOnce();
    try {
      const [received] = await push.waitFor(subscriptionId);
      expect(received?.payload).toMatchObject({ title: form.title, url: form.humanUrl });
      // Every push to the hung service is still hanging: none answered, none timed out (a minute).
      expect(hung.held()).toBe(hung.requests());
      expect(hung.requests()).toBeLessThanOrEqual(concurrency);
      // The rest waited a moment for a slot that never came, and were rescheduled.
      await log.waitFor('notify.push_deferred', HUNG - concurrency);
      await hung.waitForRequests(concurrency);
      expect(hung.requests()).toBe(concurrency);
      expect(hung.held()).toBe(concurrency);
    } finally {
      hung.answer(503);
    }
    expect(await run).toBe(1);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
    // Those sent failed (an attempt each); those not sent have their attempt back, for soon.
    const { counts, rows } = await attemptsOf(stuck);
    expect(counts).toEqual({ 0: HUNG - concurrency, 1: concurrency });
    const at = fixture.clock.now().getTime();
    for (const row of rows.filter((r) => r.attempts === 0)) expect(row.notBefore).toEqual(new Date(at + busyRetryMs));
    // The 503s opened its circuit: nothing more went to it.
    expect(log.count('notify.circuit_opened')).toBe(1);
    expect(hung.requests()).toBe(concurrency);
  });

  it('30 forms by e-mail to an SMTP server that never greets, then one to a device: the push arrives while the e-mails hang, and the server gets no more connections than its bound', async () => {
    const stalled = await startStalledSmtpServer();
    closers.push(() => stalled.close());
    const mailed = [];
    for (let i = 0; i < HUNG; i++)
      mailed.push(await createNotifiedForm(fixture, await createPerson(fixture.database), { emailAvailable: true }));
    const healthy = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, healthy.userId);
    const form = await createNotifiedForm(fixture, healthy, { emailAvailable: true });
    const log = logEvents();

    const run = worker({ smtpUrl: stalled.url, log }).runOnce();
    try {
      const [received] = await push.waitFor(subscriptionId);
      expect(received?.payload).toMatchObject({ title: form.title });
      expect(stalled.open()).toBe(stalled.connections());
      expect(stalled.connections()).toBeLessThanOrEqual(concurrency);
      await log.waitFor('notify.mail_deferred', HUNG - concurrency);
      await stalled.waitForConnections(concurrency);
      expect(stalled.connections()).toBe(concurrency);
      expect(stalled.open()).toBe(concurrency);
    } finally {
      stalled.hangUp();
    }
    expect(await run).toBe(1);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
    expect((await attemptsOf(mailed)).counts).toEqual({ 0: HUNG - concurrency, 1: concurrency });
    expect(log.count('notify.circuit_opened')).toBe(1);
    expect(stalled.connections()).toBe(concurrency);
  });
});

describe('close', () => {
  it('waits for the rows in flight: a push that hangs is settled (rescheduled) before close resolves', async () => {
    const hung = await startHangingPushService();
    closers.push(() => hung.close());
    const form = await createNotifiedForm(fixture, await personWithDevice(hung.subscribe()));
    const sender = worker();
    const run = sender.runOnce();
    await hung.waitForRequests(1);
    const closing = sender.close();
    hung.answer(503);
    await closing;
    // Read after close: rescheduled (no longer leased), so close waited for the row's end.
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([
      expect.objectContaining({ attempts: 1, lockedUntil: null }),
    ]);
    expect(await run).toBe(0);
  });
});

describe('circuit breaker', () => {
  it('after the threshold of failures its service is not contacted during the cool-down; then one probe, whose success closes it', async () => {
    const flaky = await startPushService();
    closers.push(() => flaky.close());
    const requests = (ids: string[]) => ids.reduce((sum, id) => sum + flaky.requests(id).length, 0);
    const failing: Subscriber[] = [];
    for (let i = 0; i < failureThreshold; i++) {
      const person = await createPerson(fixture.database);
      const device = await addDevice(fixture, flaky, person.userId);
      flaky.failNext(device.subscriptionId, 503);
      failing.push({ person, device, form: await createNotifiedForm(fixture, person) });
    }
    const log = logEvents();
    const sender = worker({ smtpUrl: sink.url, log });
    const start = fixture.clock.now().getTime();

    expect(await sender.runOnce()).toBe(0);
    expect(log.count('notify.circuit_opened')).toBe(1);
    expect((await attemptsOf(failing.map((f) => f.form))).counts).toEqual({ 1: failureThreshold });

    // People whose devices are on the same service, while it cools down: not contacted, not e-mailed yet.
    const later: Subscriber[] = [];
    for (let i = 0; i < 3; i++) {
      const person = await createPerson(fixture.database);
      const device = await addDevice(fixture, flaky, person.userId);
      later.push({ person, device, form: await createNotifiedForm(fixture, person, { emailAvailable: true }) });
    }
    const all = [...failing, ...later];
    const ids = all.map((p) => p.device.subscriptionId);
    expect(await sender.runOnce()).toBe(0);
    expect(requests(ids)).toBe(failureThreshold);
    const waiting = await attemptsOf(later.map((p) => p.form));
    // A try the open circuit refused counts as a failed one (the service is known to fail), for the cool-down's end.
    expect(waiting.counts).toEqual({ 1: later.length });
    for (const row of waiting.rows) expect(row.notBefore).toEqual(new Date(start + coolDownMs));
    expect(sink.messages.filter((m) => later.some((p) => m.to.includes(p.person.email)))).toEqual([]);

    // The cool-down ends: one of the rows due is the probe; the others wait for its word, their attempt given back.
    fixture.clock.set(new Date(start + coolDownMs));
    expect(await sender.runOnce()).toBe(1);
    expect(requests(ids)).toBe(failureThreshold + 1);
    expect(log.count('notify.circuit_closed')).toBe(1);
    const afterProbe = await attemptsOf(all.map((p) => p.form));
    expect(afterProbe.rows).toHaveLength(all.length - 1);
    expect(afterProbe.counts).toEqual({ 1: all.length - 1 });

    // Closed: every one of them is sent, once.
    fixture.clock.advance(busyRetryMs);
    expect(await sender.runOnce()).toBe(all.length - 1);
    expect(all.map((p) => flaky.received(p.device.subscriptionId).length)).toEqual(all.map(() => 1));
    expect(sink.messages.filter((m) => all.some((p) => m.to.includes(p.person.email)))).toEqual([]);
  });

  it('a service that answers only after half the deadline counts as failing: its circuit opens though every push was accepted', async () => {
    const slow = await startHangingPushService();
    closers.push(() => slow.close());
    const forms = [];
    for (let i = 0; i < failureThreshold; i++)
      forms.push(await createNotifiedForm(fixture, await personWithDevice(slow.subscribe())));
    const log = logEvents();
    const sender = worker({ log });
    const run = sender.runOnce();
    await slow.waitForRequests(failureThreshold);
    fixture.clock.advance(30_000); // half the worker's 60 s deadline, while they hang
    slow.answer(201);
    expect(await run).toBe(failureThreshold); // delivered: the person has it
    expect(log.count('notify.circuit_opened')).toBe(1);
    // The next push to that service is not sent during the cool-down.
    await createNotifiedForm(fixture, await personWithDevice(slow.subscribe()));
    expect(await sender.runOnce()).toBe(0);
    expect(slow.requests()).toBe(failureThreshold);
    expect(forms).toHaveLength(failureThreshold);
  });

  it('a device whose service cools down past the link’s end: the link goes by e-mail at once, as on the last try', async () => {
    const flaky = await startPushService();
    closers.push(() => flaky.close());
    const failing: Subscriber[] = [];
    for (let i = 0; i < failureThreshold; i++) {
      const person = await createPerson(fixture.database);
      const device = await addDevice(fixture, flaky, person.userId);
      flaky.failNext(device.subscriptionId, 503);
      // One of them has a link that lapses in a minute; the others have an hour.
      const form = await createNotifiedForm(fixture, person, { emailAvailable: true, expiresIn: i === 0 ? 60 : 3600 });
      failing.push({ person, device, form });
    }
    const [short, ...others] = failing;
    const sender = worker({ smtpUrl: sink.url });
    fixture.clock.advance(40_000);
    expect(await sender.runOnce()).toBe(0); // five 503s: open for the next 30 s
    fixture.clock.set(new Date(short!.form.expiresAt.getTime() - 1_000));
    expect(await sender.runOnce()).toBe(1);
    const message = await sink.waitFor((m) => m.to.includes(short!.person.email));
    expect(message.text.split('\n')).toContain(short!.form.humanUrl);
    expect(flaky.requests(short!.device.subscriptionId)).toEqual([503]);
    expect(sink.messages.filter((m) => others.some((p) => m.to.includes(p.person.email)))).toEqual([]);
    expect((await attemptsOf(others.map((p) => p.form))).counts).toEqual({ 2: others.length });
  });
});
