import { newId } from '@sess/core';
import { memberships } from '@sess/db';
import { createAsk } from '@sess/forms';
import {
  DEFAULT_SETTINGS,
  enqueueAskAnswer,
  enqueueAskWatch,
  enqueueFormNotice,
  reminderAt,
  saveSettings,
  topicOf,
} from '@sess/notify';
import { createUser, recordSecret, sampleAskArguments } from '@sess/testkit';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDevice,
  createForm,
  createNotifyFixture,
  createPerson,
  type NotifyFixture,
  notifyOf,
  outboxRows,
} from './notify-fixture.ts';

let fixture: NotifyFixture;
let push: TestPushService;

beforeAll(async () => {
  fixture = await createNotifyFixture();
  push = await startPushService();
});
afterAll(async () => {
  await push.close();
  await fixture.close();
});

describe('enqueueFormNotice', () => {
  it('an OAuth person with a device gets one row: the Topic of the form, due now, lapsing with the link, title and link sealed', async () => {
    const person = await createPerson(fixture.database);
    await addDevice(fixture, push, person.userId);
    const form = await createForm(fixture, person);

    expect(await notifyOf(fixture, person, form)).toBe(true);
    const rows = await outboxRows(fixture.database, form.sessionId);
    expect(rows).toEqual([
      expect.objectContaining({
        userId: person.userId,
        workspaceId: person.workspaceId,
        kind: 'form',
        topic: topicOf(form.sessionId),
        notBefore: fixture.clock.now(),
        expiresAt: form.expiresAt,
        attempts: 0,
        lockedUntil: null,
      }),
    ]);
    const payload = rows[0]?.payload ?? '';
    expect(payload).not.toContain(form.humanUrl);
    expect(JSON.parse(fixture.sealers.outbox.open(form.sessionId, payload))).toEqual({ title: form.title, url: form.humanUrl });
  });

  it('a person without any channel gets nothing (false); e-mail counts only when it is configured and on', async () => {
    const person = await createPerson(fixture.database);
    const form = await createForm(fixture, person);
    expect(await notifyOf(fixture, person, form)).toBe(false);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);

    expect(await notifyOf(fixture, person, form, { emailAvailable: true })).toBe(true);
    await saveSettings(fixture.database.db, person.userId, { ...DEFAULT_SETTINGS, emailEnabled: false }, fixture.clock.now());
    const another = await createForm(fixture, person);
    expect(await notifyOf(fixture, person, another, { emailAvailable: true })).toBe(false);
  });

  it('push turned off: a device does not count', async () => {
    const person = await createPerson(fixture.database);
    await addDevice(fixture, push, person.userId);
    await saveSettings(fixture.database.db, person.userId, { ...DEFAULT_SETTINGS, pushEnabled: false }, fixture.clock.now());
    expect(await notifyOf(fixture, person, await createForm(fixture, person))).toBe(false);
  });

  it('a person of another workspace is never told, even when named', async () => {
    const person = await createPerson(fixture.database);
    const stranger = await createPerson(fixture.database);
    await addDevice(fixture, push, stranger.userId);
    const form = await createForm(fixture, person);
    expect(await notifyOf(fixture, { userId: stranger.userId, workspaceId: person.workspaceId }, form)).toBe(false);
    expect(await outboxRows(fixture.database, form.sessionId)).toEqual([]);
  });

  it('an API key’s form tells the workspace’s owners who chose apiKeyForms, and nobody else', async () => {
    const owner = await createPerson(fixture.database);
    const { workspaceId } = owner;
    const otherOwner = await createUser(fixture.database.db, { workspaceId });
    const member = await createUser(fixture.database.db);
    await fixture.database.db
      .insert(memberships)
      .values({ id: newId('membership'), workspaceId, userId: member.userId, role: 'member' });
    for (const who of [owner, otherOwner, member]) {
      recordSecret(who.email, 'credential');
      await addDevice(fixture, push, who.userId);
    }
    for (const who of [owner, member])
      await saveSettings(fixture.database.db, who.userId, { ...DEFAULT_SETTINGS, apiKeyForms: true }, fixture.clock.now());
    const form = await createForm(fixture, owner);

    const told = await enqueueFormNotice(
      fixture.database.db,
      fixture.sealers,
      {
        workspaceId,
        sessionId: form.sessionId,
        recipient: { workspaceOwners: true },
        kind: 'form',
        title: form.title,
        url: form.humanUrl,
        expiresAt: form.expiresAt,
        now: fixture.clock.now(),
      },
      { emailAvailable: false },
    );
    expect(told).toBe(true);
    expect((await outboxRows(fixture.database, form.sessionId)).map((r) => r.userId)).toEqual([owner.userId]);
  });

  it('reminders on: a new form also gets a reminder row, due a quarter of its life (at most an hour) before it lapses; a follow-up does not', async () => {
    const person = await createPerson(fixture.database);
    await addDevice(fixture, push, person.userId);
    await saveSettings(fixture.database.db, person.userId, { ...DEFAULT_SETTINGS, reminders: true }, fixture.clock.now());
    const form = await createForm(fixture, person, { expiresIn: 2 * 3600 });
    await notifyOf(fixture, person, form);
    const rows = await outboxRows(fixture.database, form.sessionId);
    expect(rows.map((r) => [r.kind, r.notBefore])).toEqual([
      ['form', fixture.clock.now()],
      ['reminder', new Date(form.expiresAt.getTime() - 30 * 60_000)],
    ]);
    expect(reminderAt(fixture.clock.now(), form.expiresAt)).toEqual(rows[1]?.notBefore);
    expect(rows[1]?.topic).toBe(rows[0]?.topic);

    await notifyOf(fixture, person, form, { kind: 'follow_up' });
    expect((await outboxRows(fixture.database, form.sessionId)).map((r) => r.kind).sort()).toEqual([
      'follow_up',
      'form',
      'reminder',
    ]);
  });
});

describe('enqueueAskWatch and enqueueAskAnswer', () => {
  async function watchedAsk(person: { userId: string; workspaceId: string }, max: number) {
    const created = await createAsk({
      ctx: { runtime: fixture.runtime, workspaceId: person.workspaceId },
      input: sampleAskArguments({ max }),
    });
    recordSecret(created.humanUrl, 'link');
    const notice = {
      workspaceId: person.workspaceId,
      sessionId: created.sessionId,
      recipient: { userId: person.userId },
      title: 'Where should we go on Saturday?',
      url: created.humanUrl,
      expiresAt: new Date(created.expiresAt),
      now: fixture.clock.now(),
    };
    const watch = () => enqueueAskWatch(fixture.database.db, fixture.sealers, notice, { emailAvailable: false });
    return { sessionId: created.sessionId, expiresAt: notice.expiresAt, watch };
  }

  it('registers one close per watcher, due at the deadline (a second watch adds none); nothing for ask updates off', async () => {
    const person = await createPerson(fixture.database);
    await addDevice(fixture, push, person.userId);
    const ask = await watchedAsk(person, 3);
    expect(await ask.watch()).toBe(true);
    expect(await ask.watch()).toBe(false);
    expect(await outboxRows(fixture.database, ask.sessionId)).toEqual([
      expect.objectContaining({ kind: 'ask_closed', notBefore: ask.expiresAt, topic: topicOf(ask.sessionId) }),
    ]);

    const quiet = await createPerson(fixture.database);
    await addDevice(fixture, push, quiet.userId);
    await saveSettings(fixture.database.db, quiet.userId, { ...DEFAULT_SETTINGS, askUpdates: 'off' }, fixture.clock.now());
    const unwatched = await watchedAsk(quiet, 3);
    expect(await unwatched.watch()).toBe(false);
    expect(await outboxRows(fixture.database, unwatched.sessionId)).toEqual([]);
  });

  it('each_answer: an answer adds an ask_answer row due now; the answer that closes it moves the close to now instead', async () => {
    const person = await createPerson(fixture.database);
    await addDevice(fixture, push, person.userId);
    await saveSettings(
      fixture.database.db,
      person.userId,
      { ...DEFAULT_SETTINGS, askUpdates: 'each_answer' },
      fixture.clock.now(),
    );
    const ask = await watchedAsk(person, 2);
    await ask.watch();

    await enqueueAskAnswer(fixture.database.db, { sessionId: ask.sessionId, closed: false, now: fixture.clock.now() });
    expect((await outboxRows(fixture.database, ask.sessionId)).map((r) => [r.kind, r.notBefore])).toEqual([
      ['ask_answer', fixture.clock.now()],
      ['ask_closed', ask.expiresAt],
    ]);
    fixture.clock.advance(1000);
    await enqueueAskAnswer(fixture.database.db, { sessionId: ask.sessionId, closed: true, now: fixture.clock.now() });
    expect((await outboxRows(fixture.database, ask.sessionId)).map((r) => [r.kind, r.notBefore])).toEqual([
      ['ask_answer', new Date(fixture.clock.now().getTime() - 1000)],
      ['ask_closed', fixture.clock.now()],
    ]);
  });

  it('closed (the default): an answer adds nothing until the one that closes it', async () => {
    const person = await createPerson(fixture.database);
    await addDevice(fixture, push, person.userId);
    const ask = await watchedAsk(person, 2);
    await ask.watch();
    await enqueueAskAnswer(fixture.database.db, { sessionId: ask.sessionId, closed: false, now: fixture.clock.now() });
    expect((await outboxRows(fixture.database, ask.sessionId)).map((r) => [r.kind, r.notBefore])).toEqual([
      ['ask_closed', ask.expiresAt],
    ]);
    await enqueueAskAnswer(fixture.database.db, { sessionId: ask.sessionId, closed: true, now: fixture.clock.now() });
    expect((await outboxRows(fixture.database, ask.sessionId)).map((r) => [r.kind, r.notBefore])).toEqual([
      ['ask_closed', fixture.clock.now()],
    ]);
  });
});
