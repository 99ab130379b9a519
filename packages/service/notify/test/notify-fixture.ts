import type { Database, DbOrTx } from '@sess/db';
import { notificationOutbox } from '@sess/db';
import type { FormsRuntime } from '@sess/forms';
import {
  createNotifySealers,
  enqueueFormNotice,
  loadVapidKeys,
  type NotifySealers,
  parsePushTarget,
  saveDevice,
} from '@sess/notify';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createTestSession,
  createUser,
  createWorkspace,
  recordSecret,
  sampleSurface,
  TEST_SECRET,
  type TestClock,
  type TestDatabase,
} from '@sess/testkit';
import type { TestPushService } from '@sess/testkit/push-service';
import { asc, eq } from 'drizzle-orm';

/** What every notify test file starts from: its own database, a hand-moved clock, a forms runtime. */
export interface NotifyFixture {
  database: TestDatabase;
  clock: TestClock;
  runtime: FormsRuntime;
  sealers: NotifySealers;
  close(): Promise<void>;
}

export async function createNotifyFixture(): Promise<NotifyFixture> {
  const database = await createTestDatabase({ poolMax: 10 });
  const clock = createTestClock();
  const runtime = createTestFormsRuntime(database, { now: clock.now });
  return {
    database,
    clock,
    runtime,
    sealers: createNotifySealers(TEST_SECRET),
    async close() {
      await runtime.close();
      await database.destroy();
    },
  };
}

/** A person who owns a workspace of their own (on `pro`, so many forms may be open). */
export async function createPerson(database: Database): Promise<{ userId: string; email: string; workspaceId: string }> {
  const { workspaceId } = await createWorkspace(database.db, { plan: 'pro' });
  const { userId, email } = await createUser(database.db, { workspaceId });
  recordSecret(email, 'credential');
  return { userId, email, workspaceId };
}

/** Subscribes a device of `userId` at the test push service, as the account page does. */
export async function addDevice(
  fixture: NotifyFixture,
  push: TestPushService,
  userId: string,
): Promise<{ deviceId: string; subscriptionId: string }> {
  const { publicKey } = await loadVapidKeys(fixture.database.db, fixture.sealers);
  const { id, subscription } = push.subscribe(publicKey);
  const target = parsePushTarget(subscription, { policy: 'loopback-only' });
  const deviceId = await saveDevice(fixture.database.db, fixture.sealers, {
    userId,
    target,
    name: 'Test phone',
    now: fixture.clock.now(),
  });
  return { deviceId, subscriptionId: id };
}

export interface TestForm {
  sessionId: string;
  humanUrl: string;
  token: string;
  title: string;
  expiresAt: Date;
}

/** A new form in the person's workspace (its title recorded for the log audit). */
export async function createForm(
  fixture: NotifyFixture,
  person: { workspaceId: string },
  options: { title?: string; expiresIn?: number; locale?: string } = {},
): Promise<TestForm> {
  const title = options.title ?? `Deploy the notify branch ${Math.random().toString(36).slice(2, 8)}?`;
  recordSecret(title, 'form-text');
  const created = await createTestSession(fixture.runtime, person.workspaceId, {
    surface: options.locale ? { ...sampleSurface(title), locale: options.locale } : sampleSurface(title),
    expiresIn: options.expiresIn ?? 3600,
    plan: 'pro',
  });
  return {
    sessionId: created.sessionId,
    humanUrl: created.humanUrl,
    token: created.token,
    title,
    expiresAt: new Date(created.expiresAt),
  };
}

/** Enqueues the form's notification for the person, as apps/server does in the create's transaction. */
export function notifyOf(
  fixture: NotifyFixture,
  person: { userId: string; workspaceId: string },
  form: TestForm,
  options: { db?: DbOrTx; kind?: 'form' | 'follow_up'; title?: string; emailAvailable?: boolean } = {},
): Promise<boolean> {
  return enqueueFormNotice(
    options.db ?? fixture.database.db,
    fixture.sealers,
    {
      workspaceId: person.workspaceId,
      sessionId: form.sessionId,
      recipient: { userId: person.userId },
      kind: options.kind ?? 'form',
      title: options.title ?? form.title,
      url: form.humanUrl,
      expiresAt: form.expiresAt,
      now: fixture.clock.now(),
    },
    { emailAvailable: options.emailAvailable ?? false },
  );
}

/** A new form for the person, with its notification enqueued. */
export async function createNotifiedForm(
  fixture: NotifyFixture,
  person: { userId: string; workspaceId: string },
  options: { title?: string; expiresIn?: number; emailAvailable?: boolean; locale?: string } = {},
): Promise<TestForm & { enqueued: boolean }> {
  const form = await createForm(fixture, person, options);
  const enqueued = await notifyOf(fixture, person, form, { emailAvailable: options.emailAvailable ?? false });
  return { ...form, enqueued };
}

/** The outbox rows of a session, oldest first. */
export function outboxRows(database: Database, sessionId: string) {
  return database.db
    .select()
    .from(notificationOutbox)
    .where(eq(notificationOutbox.sessionId, sessionId))
    .orderBy(asc(notificationOutbox.notBefore), asc(notificationOutbox.kind));
}

export const VAPID_SUBJECT = 'mailto:operators@sess.test';
export { TEST_SECRET };
