import { readOutboxBacklog } from '@sess/notify';
import { startPushService, type TestPushService } from '@sess/testkit/push-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, createForm, createNotifyFixture, createPerson, type NotifyFixture, notifyOf } from './notify-fixture.ts';

/* The outbox backlog the metrics read: counts and an age, never a row's contents. */

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

describe('readOutboxBacklog', () => {
  it('counts the rows, those due at the given time, and the age of the oldest due one', async () => {
    expect(await readOutboxBacklog(fixture.database.db, fixture.clock.now())).toEqual({ rows: 0, due: 0, oldestDueSeconds: 0 });

    // Two people told of forms, each row due at the fixture's "now".
    for (let i = 0; i < 2; i++) {
      const person = await createPerson(fixture.database);
      await addDevice(fixture, push, person.userId);
      expect(await notifyOf(fixture, person, await createForm(fixture, person))).toBe(true);
    }
    const written = fixture.clock.now().getTime();
    const at = (offsetSeconds: number) => new Date(written + offsetSeconds * 1000);

    expect(await readOutboxBacklog(fixture.database.db, at(0))).toEqual({ rows: 2, due: 2, oldestDueSeconds: 0 });
    expect(await readOutboxBacklog(fixture.database.db, at(90.5))).toEqual({ rows: 2, due: 2, oldestDueSeconds: 90.5 });
    // Before they are due: still rows, none due, no age.
    expect(await readOutboxBacklog(fixture.database.db, at(-60))).toEqual({ rows: 2, due: 0, oldestDueSeconds: 0 });
  });
});
