import { createEgress } from '@sess/core/egress';
import { type Database, notificationOutbox, openDatabase, queryRows, users } from '@sess/db';
import { createAsk, publishSession, startRespondent, submitLinkAnswer } from '@sess/forms';
import {
  DEFAULT_SETTINGS,
  enqueueAskAnswer,
  enqueueAskWatch,
  listDevices,
  type NotificationWorker,
  OUTBOX_CHANNEL,
  saveSettings,
  startNotificationWorker,
  topicOf,
} from '@sess/notify';
import { noticeTexts } from '@sess/notify-pages';
import { createTestLogger, recordSecret, sampleAskArguments, sampleSurface, testDriver, tokenOf } from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { type SmtpSink, startSmtpSink } from '@sess/testkit/smtp-sink';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createForm,
  createNotifiedForm,
  createNotifyFixture,
  createPerson,
  type NotifyFixture,
  notifyOf,
  outboxRows,
  TEST_SECRET,
  VAPID_SUBJECT,
} from './notify-fixture.ts';

let fixture: NotifyFixture;
let push: TestPushService;
let sink: SmtpSink;
const workers: NotificationWorker[] = [];

beforeAll(async () => {
  fixture = await createNotifyFixture();
  push = await startPushService();
  sink = await startSmtpSink();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
});
afterAll(async () => {
  await push.close();
  await sink.close();
  await fixture.close();
});

function worker(options: { database?: Database; mail?: boolean; background?: boolean; pollMs?: number; batch?: number } = {}) {
  const started = startNotificationWorker({
    database: options.database ?? fixture.database,
    secret: TEST_SECRET,
    logger: createTestLogger(),
    now: fixture.clock.now,
    vapidSubject: VAPID_SUBJECT,
    egress: createEgress({ policy: 'loopback-only' }),
    texts: noticeTexts,
    background: options.background ?? false,
    // A slot wait is real time: on a loaded machine a healthy local service's slot can take over
    // the default 1 s to free, and the row would be rescheduled where the test expects it sent.
    slotWaitMs: 60_000,
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    ...(options.batch ? { batch: options.batch } : {}),
    ...(options.mail ? { mail: { smtpUrl: sink.url, from: 'Sess <notify@sess.test>' } } : {}),
  });
  workers.push(started);
  return started;
}

/** A form's `notified` events: the channel and when, nothing else is in them to see. */
async function notifiedEvents(sessionId: string) {
  const rows = await queryRows<{ channel: string; at: Date | string }>(
    fixture.database.db,
    sql`select channel, at from interaction_events where session_id = ${sessionId} and type = 'notified' order by pos`,
  );
  return rows.map((r) => ({ channel: r.channel, at: new Date(r.at).toISOString() }));
}

describe('push', () => {
  it('delivers a new form to the device: TTL = the link’s time left, Urgency high, the Topic, a VAPID JWT that verifies, the title and link', async () => {
    const person = await createPerson(fixture.database);
    const { deviceId, subscriptionId } = await addDevice(fixture, push, person.userId);
    const form = await createNotifiedForm(fixture, person, { expiresIn: 3600 });
    expect(form.enqueued).toBe(true);
    fixture.clock.advance(10_000);

    expect(await worker().runOnce()).toBe(1);

    const [received, ...more] = push.received(subscriptionId);
    expect(more).toEqual([]);
    expect(received).toMatchObject({
      ttl: 3590,
      urgency: 'high',
      topic: topicOf(form.sessionId),
      contentEncoding: 'aes128gcm',
      vapid: { verified: true, aud: push.url, sub: VAPID_SUBJECT },
      payload: {
        v: 1,
        tag: topicOf(form.sessionId),
        kind: 'form',
        title: form.title,
        body: 'Your agent is asking you something.',
        url: form.humanUrl,
      },
    });
    expect(received?.vapid.exp).toBeGreaterThan(Date.now() / 1000);
    expect((received?.payload as { id?: string } | undefined)?.id).toMatch(/^ntf_/);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
    expect((await listDevices(fixture.database.db, person.userId)).find((d) => d.id === deviceId)?.lastDeliveryAt).toEqual(
      fixture.clock.now(),
    );
    // Its `notified` event names the way, never the device.
    expect(await notifiedEvents(form.sessionId)).toEqual([{ channel: 'push', at: fixture.clock.now().toISOString() }]);
  });

  it('a follow-up (sess_publish) carries the same Topic, so it replaces the first on the device', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    const form = await createNotifiedForm(fixture, person);
    await worker().runOnce();

    const answer = await submitLinkAnswer(fixture.runtime, form.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'Ship it' },
    });
    if (!answer.ok) throw new Error('the answer was not accepted');
    const next = sampleSurface(`${form.title} (one more thing)`);
    recordSecret(next.title, 'form-text');
    await publishSession({
      ctx: { runtime: fixture.runtime, workspaceId: person.workspaceId },
      sessionId: form.sessionId,
      expectedRevision: 1,
      idempotencyKey: `publish-${form.sessionId}`,
      input: { response_event_id: answer.eventId, interaction: next },
    });
    await notifyOf(fixture, person, form, { kind: 'follow_up', title: next.title });
    expect(await worker().runOnce()).toBe(1);

    const [first, second] = push.received(subscriptionId);
    expect(second?.topic).toBe(first?.topic);
    expect(second?.payload).toMatchObject({ kind: 'follow_up', title: next.title, body: 'Your agent has an update on this.' });
  });

  it('a 410 from the push service forgets the device', async () => {
    const person = await createPerson(fixture.database);
    const { deviceId, subscriptionId } = await addDevice(fixture, push, person.userId);
    push.expire(subscriptionId);
    const form = await createNotifiedForm(fixture, person);

    expect(await worker().runOnce()).toBe(1);
    expect(push.requests(subscriptionId)).toEqual([410]);
    expect((await listDevices(fixture.database.db, person.userId)).map((d) => d.id)).not.toContain(deviceId);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('a 500 is retried with backoff, then delivered once', async () => {
    const person = await createPerson(fixture.database);
    const { deviceId, subscriptionId } = await addDevice(fixture, push, person.userId);
    push.failNext(subscriptionId, 500);
    const form = await createNotifiedForm(fixture, person);
    const sender = worker();

    expect(await sender.runOnce()).toBe(0);
    const [waiting] = await outboxRows(fixture.database, form.sessionId);
    expect(waiting).toMatchObject({ attempts: 1, lockedUntil: null });
    const delay = (waiting?.notBefore.getTime() ?? 0) - fixture.clock.now().getTime();
    expect(delay).toBeGreaterThanOrEqual(11_250);
    expect(delay).toBeLessThanOrEqual(18_750);
    expect((await listDevices(fixture.database.db, person.userId)).find((d) => d.id === deviceId)?.lastFailureAt).not.toBeNull();
    expect(await sender.runOnce()).toBe(0); // not due yet

    fixture.clock.advance(20_000);
    expect(await sender.runOnce()).toBe(1);
    expect(push.requests(subscriptionId)).toEqual([500, 201]);
    expect(push.received(subscriptionId)).toHaveLength(1);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('a retry pushes only to the devices that did not take it: one that did is not shown it twice', async () => {
    const person = await createPerson(fixture.database);
    const took = await addDevice(fixture, push, person.userId);
    const failed = await addDevice(fixture, push, person.userId);
    push.failNext(failed.subscriptionId, 500);
    const form = await createNotifiedForm(fixture, person);
    const sender = worker();

    expect(await sender.runOnce()).toBe(0); // one device asked for another try
    expect(push.requests(took.subscriptionId)).toEqual([201]);
    fixture.clock.advance(20_000);
    expect(await sender.runOnce()).toBe(1);
    expect(push.requests(failed.subscriptionId)).toEqual([500, 201]);
    expect(push.requests(took.subscriptionId)).toEqual([201]);
    expect(push.received(took.subscriptionId)).toHaveLength(1);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('a 413 is not retried (sending the same again cannot help)', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    push.failNext(subscriptionId, 413);
    const form = await createNotifiedForm(fixture, person);

    expect(await worker().runOnce()).toBe(1);
    expect(push.requests(subscriptionId)).toEqual([413]);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('a row whose lease ran out (a crash between send and delete) is sent again with the same id and Topic', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    const form = await createNotifiedForm(fixture, person);
    // As a crashed worker leaves it: claimed (leased, one attempt counted), never deleted.
    await fixture.database.db
      .update(notificationOutbox)
      .set({ attempts: 1, lockedUntil: new Date(fixture.clock.now().getTime() + 60_000) })
      .where(eq(notificationOutbox.sessionId, form.sessionId));
    const sender = worker();
    expect(await sender.runOnce()).toBe(0); // still leased

    fixture.clock.advance(61_000);
    expect(await sender.runOnce()).toBe(1);
    const [received] = push.received(subscriptionId);
    expect(received).toMatchObject({ topic: topicOf(form.sessionId), payload: { tag: topicOf(form.sessionId) } });
  });

  it('two workers over 40 rows deliver each exactly once', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    const form = await createNotifiedForm(fixture, person);
    await worker().runOnce();
    const before = push.received(subscriptionId).length;
    for (let i = 0; i < 40; i++) await notifyOf(fixture, person, form, { kind: 'follow_up' });
    // PostgreSQL: a second replica with its own pool; PGlite: two workers on its one connection.
    const replica = testDriver() === 'postgres' ? await openDatabase({ url: fixture.database.url!, poolMax: 5 }) : undefined;
    try {
      const finished = await Promise.all([
        worker({ batch: 5 }).runOnce(),
        worker({ batch: 5, ...(replica ? { database: replica } : {}) }).runOnce(),
      ]);
      expect(finished[0] + finished[1]).toBe(40);
      const ids = push
        .received(subscriptionId)
        .slice(before)
        .map((r) => (r.payload as { id: string }).id);
      expect(ids).toHaveLength(40);
      expect(new Set(ids).size).toBe(40);
      expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.close()));
      await replica?.close();
    }
  });

  it('quiet hours postpone a notification to their end without counting an attempt (or drop it when its link lapses first)', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    await saveSettings(
      fixture.database.db,
      person.userId,
      { ...DEFAULT_SETTINGS, quietHours: { start: 22 * 60, end: 7 * 60 }, timeZone: 'UTC' },
      fixture.clock.now(),
    );
    const start = new Date('2030-03-01T23:30:00.000Z');
    fixture.clock.set(start);
    const form = await createNotifiedForm(fixture, person, { expiresIn: 12 * 3600 });
    const lapsesFirst = await createNotifiedForm(fixture, person, { expiresIn: 3600 });
    const sender = worker();

    expect(await sender.runOnce()).toBe(1); // the one whose link lapses before they end is dropped
    expect(await outboxRows(fixture.database, lapsesFirst.sessionId)).toEqual([]);
    expect(push.received(subscriptionId)).toEqual([]);
    const [postponed] = await outboxRows(fixture.database, form.sessionId);
    expect(postponed).toMatchObject({ attempts: 0, lockedUntil: null, notBefore: new Date('2030-03-02T07:00:00.000Z') });

    fixture.clock.set(new Date('2030-03-02T07:00:30.000Z'));
    expect(await sender.runOnce()).toBe(1);
    expect(push.received(subscriptionId)).toHaveLength(1);
    expect(push.received(subscriptionId)[0]?.ttl).toBe(
      Math.floor((form.expiresAt.getTime() - fixture.clock.now().getTime()) / 1000),
    );
  });

  it('a reminder goes before an unanswered link lapses, and is dropped once the form is answered', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    await saveSettings(fixture.database.db, person.userId, { ...DEFAULT_SETTINGS, reminders: true }, fixture.clock.now());
    const answered = await createNotifiedForm(fixture, person, { expiresIn: 4 * 3600 });
    const waiting = await createNotifiedForm(fixture, person, { expiresIn: 4 * 3600 });
    const sender = worker();
    expect(await sender.runOnce()).toBe(2);
    expect((await outboxRows(fixture.database, answered.sessionId)).map((r) => r.kind)).toEqual(['reminder']);
    await submitLinkAnswer(fixture.runtime, answered.token, { revision: 1, actionId: 'approve', submitted: { message: 'Done' } });

    fixture.clock.advance(3 * 3600 * 1000 + 1000); // an hour before the links lapse
    expect(await sender.runOnce()).toBe(2);
    const reminders = push.received(subscriptionId).filter((r) => (r.payload as { kind: string }).kind === 'reminder');
    expect(reminders.map((r) => r.payload)).toEqual([
      expect.objectContaining({ title: waiting.title, body: 'Still waiting for your answer; the link lapses soon.' }),
    ]);
    expect(await outboxRows(fixture.database, answered.sessionId)).toEqual([]);
  });

  it('a notification whose link lapsed is dropped, not sent', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    const form = await createNotifiedForm(fixture, person, { expiresIn: 60 });
    fixture.clock.advance(61_000);
    expect(await worker().runOnce()).toBe(1);
    expect(push.requests(subscriptionId)).toEqual([]);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('wakes on commit: a worker running in the background sends an enqueue without waiting for its poll', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    await worker({ background: true, pollMs: 600_000 }).listening;
    const heard: string[] = [];
    const unlisten = await fixture.database.bus.subscribe(OUTBOX_CHANNEL, (payload) => heard.push(payload));
    try {
      const form = await createForm(fixture, person);
      await fixture.database.db.transaction(async (tx) => {
        expect(await notifyOf(fixture, person, form, { db: tx })).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(heard).toEqual([]); // not before commit
      });
      // The background worker sends on the commit's wake (its poll is ten minutes away).
      await expect.poll(() => push.received(subscriptionId)).toHaveLength(1);
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      await unlisten();
    }
  });
});

describe('e-mail', () => {
  it('goes through SMTP when the person has no device and mail is configured: the title as subject, the why and the whole link', async () => {
    const person = await createPerson(fixture.database);
    const form = await createNotifiedForm(fixture, person, {
      emailAvailable: true,
      title: 'Café order for the team — ☕ or 🍵?',
    });
    expect(form.enqueued).toBe(true);

    expect(await worker({ mail: true }).runOnce()).toBe(1);
    const message = await sink.waitFor((m) => m.to.includes(person.email));
    expect(message.from).toBe('notify@sess.test');
    expect(message.subject).toBe(form.title);
    expect(message.text).toContain('Your agent is asking you something.');
    expect(message.text.split('\n')).toContain(form.humanUrl);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
    expect((await notifiedEvents(form.sessionId)).map((e) => e.channel)).toEqual(['email']);
  });

  it('is written in the form’s language: a German form’s e-mail and push are German, an unknown language’s English', async () => {
    const person = await createPerson(fixture.database);
    const german = await createNotifiedForm(fixture, person, { emailAvailable: true, locale: 'de-CH' });
    expect(await worker({ mail: true }).runOnce()).toBe(1);
    const mail = await sink.waitFor((m) => m.to.includes(person.email) && m.subject === german.title);
    expect(mail.headers['content-language']).toBe('de');
    expect(mail.text).toContain('Ihr Agent hat eine Frage an Sie.');
    expect(mail.text).toMatch(/Der Link gilt bis .+ \(UTC\)\./);
    expect(mail.text).toContain('Sie erhalten diese E-Mail von Sess');
    expect(mail.text.split('\n')).toContain(german.humanUrl);

    const other = await createPerson(fixture.database);
    const klingon = await createNotifiedForm(fixture, other, { emailAvailable: true, locale: 'tlh' });
    expect(await worker({ mail: true }).runOnce()).toBe(1);
    const english = await sink.waitFor((m) => m.to.includes(other.email) && m.subject === klingon.title);
    expect(english.headers['content-language']).toBe('en');
    expect(english.text).toContain('Your agent is asking you something.');
    expect(english.text).toMatch(/The link works until .+ \(UTC\)\./);

    const pushed = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, pushed.userId);
    await createNotifiedForm(fixture, pushed, { locale: 'de' });
    expect(await worker().runOnce()).toBe(1);
    expect(push.received(subscriptionId)[0]?.payload).toMatchObject({ body: 'Ihr Agent hat eine Frage an Sie.', lang: 'de' });
  });

  it('is written in the recipient’s saved language before the form’s', async () => {
    const person = await createPerson(fixture.database);
    await fixture.database.db.update(users).set({ locale: 'fr' }).where(eq(users.id, person.userId));
    const form = await createNotifiedForm(fixture, person, { emailAvailable: true, locale: 'de' });
    expect(await worker({ mail: true }).runOnce()).toBe(1);
    const mail = await sink.waitFor((m) => m.to.includes(person.email) && m.subject === form.title);
    expect(mail.headers['content-language']).toBe('fr');
    expect(mail.text).not.toContain('Ihr Agent');
  });

  it('a device that accepts the push means no e-mail', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    await createNotifiedForm(fixture, person, { emailAvailable: true });
    expect(await worker({ mail: true }).runOnce()).toBe(1);
    expect(push.received(subscriptionId)).toHaveLength(1);
    expect(sink.messages.filter((m) => m.to.includes(person.email))).toEqual([]);
  });

  it('a device that keeps failing: after the last try the link goes by e-mail', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    push.failNext(subscriptionId, 503, 20);
    const form = await createNotifiedForm(fixture, person, { emailAvailable: true, expiresIn: 6 * 3600 });
    const sender = worker({ mail: true });
    for (let run = 1; run < 8; run++) {
      expect(await sender.runOnce()).toBe(0);
      fixture.clock.advance(31 * 60_000);
    }
    expect(sink.messages.filter((m) => m.to.includes(person.email))).toEqual([]);
    expect(await sender.runOnce()).toBe(1);
    expect(push.requests(subscriptionId)).toEqual(Array.from({ length: 8 }, () => 503));
    const message = await sink.waitFor((m) => m.to.includes(person.email));
    expect(message.text.split('\n')).toContain(form.humanUrl);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('a device that took it on an earlier try means no e-mail when another one keeps failing', async () => {
    const person = await createPerson(fixture.database);
    const took = await addDevice(fixture, push, person.userId);
    const failing = await addDevice(fixture, push, person.userId);
    push.failNext(failing.subscriptionId, 503, 20);
    const form = await createNotifiedForm(fixture, person, { emailAvailable: true, expiresIn: 6 * 3600 });
    const sender = worker({ mail: true });
    for (let run = 1; run < 8; run++) {
      expect(await sender.runOnce()).toBe(0);
      fixture.clock.advance(31 * 60_000);
    }
    expect(await sender.runOnce()).toBe(1);
    expect(push.requests(failing.subscriptionId)).toEqual(Array.from({ length: 8 }, () => 503));
    expect(push.requests(took.subscriptionId)).toEqual([201]);
    expect(sink.messages.filter((m) => m.to.includes(person.email))).toEqual([]);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('nothing is e-mailed without mail configuration', async () => {
    const person = await createPerson(fixture.database);
    // Enqueued while e-mail was configured; the worker now has none.
    const form = await createNotifiedForm(fixture, person, { emailAvailable: true });
    expect(await worker().runOnce()).toBe(1);
    expect(sink.messages.filter((m) => m.to.includes(person.email))).toEqual([]);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });
});

describe('Asks', () => {
  async function askWatchedBy(person: { userId: string; workspaceId: string }, max: number) {
    const created = await createAsk({
      ctx: { runtime: fixture.runtime, workspaceId: person.workspaceId },
      input: sampleAskArguments({ max }),
    });
    recordSecret(created.humanUrl, 'link');
    const watched = await enqueueAskWatch(
      fixture.database.db,
      fixture.sealers,
      {
        workspaceId: person.workspaceId,
        sessionId: created.sessionId,
        recipient: { userId: person.userId },
        title: 'Where should we go on Saturday?',
        url: created.humanUrl,
        expiresAt: new Date(created.expiresAt),
        now: fixture.clock.now(),
      },
      { emailAvailable: false },
    );
    return { ...created, token: tokenOf(created.humanUrl), watched };
  }

  async function answer(askToken: string, place: string, closed: boolean, sessionId: string) {
    const started = await startRespondent(fixture.runtime, askToken);
    recordSecret(started.respondentToken, 'token');
    await submitLinkAnswer(fixture.runtime, started.respondentToken, { revision: 1, submitted: { place } });
    await enqueueAskAnswer(fixture.database.db, { sessionId, closed, now: fixture.clock.now() });
  }

  it('each_answer: the owner hears of every answer, then of the close, all under one Topic', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    await saveSettings(
      fixture.database.db,
      person.userId,
      { ...DEFAULT_SETTINGS, askUpdates: 'each_answer' },
      fixture.clock.now(),
    );
    const ask = await askWatchedBy(person, 2);
    expect(ask.watched).toBe(true);
    const sender = worker();
    expect(await sender.runOnce()).toBe(0); // the close is due at the deadline

    await answer(ask.token, 'Beach', false, ask.sessionId);
    expect(await sender.runOnce()).toBe(1);
    await answer(ask.token, 'City', true, ask.sessionId);
    expect(await sender.runOnce()).toBe(1);

    const received = push.received(subscriptionId);
    expect(received.map((r) => (r.payload as { body: string }).body)).toEqual(['1 of 2 answered.', 'Closed with 2 answers.']);
    expect(received.map((r) => (r.payload as { kind: string }).kind)).toEqual(['ask_answer', 'ask_closed']);
    expect(new Set(received.map((r) => r.topic))).toEqual(new Set([topicOf(ask.sessionId)]));
  });

  it('closed (the default): no word per answer, one when it closes', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    const ask = await askWatchedBy(person, 2);
    const sender = worker();
    await answer(ask.token, 'Beach', false, ask.sessionId);
    expect(await outboxRows(fixture.database, ask.sessionId)).toEqual([expect.objectContaining({ kind: 'ask_closed' })]);
    expect(await sender.runOnce()).toBe(0);
    await answer(ask.token, 'Mountains', true, ask.sessionId);
    expect(await sender.runOnce()).toBe(1);
    expect(push.received(subscriptionId).map((r) => r.payload)).toEqual([
      expect.objectContaining({ kind: 'ask_closed', body: 'Closed with 2 answers.' }),
    ]);
  });

  it('an Ask that runs to its deadline is told then', async () => {
    const person = await createPerson(fixture.database);
    const { subscriptionId } = await addDevice(fixture, push, person.userId);
    const ask = await askWatchedBy(person, 5);
    await answer(ask.token, 'City', false, ask.sessionId);
    fixture.clock.set(new Date(new Date(ask.expiresAt).getTime() + 1000));
    expect(await worker().runOnce()).toBe(1);
    expect(push.received(subscriptionId).map((r) => r.payload)).toEqual([
      expect.objectContaining({ kind: 'ask_closed', body: 'Closed with 1 answer.' }),
    ]);
  });
});
