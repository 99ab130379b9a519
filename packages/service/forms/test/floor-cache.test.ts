import { formSessions, users, workspaces } from '@sess/db';
import {
  createAsk,
  createSession,
  type FormsRuntime,
  prepareSession,
  type WorkspaceContext,
  withCurrentFloor,
} from '@sess/forms';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createUser,
  createWorkspace,
  sampleAskArguments,
  sampleSurface,
  type TestDatabase,
} from '@sess/testkit';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { key, refusal } from '../src/test-helpers.ts';

/*
 * The floors of new forms are cached per process (sessions/floor-reader.ts): a trigger announces
 * every change on `assurance_floors`, and a create's own statement refuses a form decided under a
 * floor that has moved, so a raised floor holds for the very next form even where the
 * announcement has not arrived (here: it is never sent).
 */

let database: TestDatabase;
let runtime: FormsRuntime;
let workspaceId: string;
let personId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  runtime = createTestFormsRuntime(database, { now: createTestClock().now });
  ({ workspaceId } = await createWorkspace(database.db, { plan: 'pro' }));
  ({ userId: personId } = await createUser(database.db, { workspaceId }));
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

const asPerson = (): WorkspaceContext => ({ runtime, workspaceId, madeBy: { kind: 'person', userId: personId } });
const asApiKey = (): WorkspaceContext => ({ runtime, workspaceId, madeBy: { kind: 'api_key' } });

async function storedAssurance(sessionId: string) {
  const [row] = await database.db
    .select({ assurance: formSessions.assurance })
    .from(formSessions)
    .where(eq(formSessions.id, sessionId));
  return row?.assurance;
}

/** The next payload on `assurance_floors` (resolves when it arrives; nothing waits on a clock). */
async function nextAnnouncement(): Promise<{ payload: Promise<string>; stop: () => unknown }> {
  let heard!: (payload: string) => void;
  const payload = new Promise<string>((resolve) => {
    heard = resolve;
  });
  const stop = await database.bus.subscribe('assurance_floors', (p) => heard(p));
  return { payload, stop };
}

/** Changes floors with the announcing triggers off: as if this process had not heard yet. */
async function silently(change: () => Promise<unknown>) {
  await database.db.execute(sql`alter table users disable trigger users_assurance_floor_changed`);
  await database.db.execute(sql`alter table workspaces disable trigger workspaces_api_key_assurance_floor_changed`);
  try {
    await change();
  } finally {
    await database.db.execute(sql`alter table users enable trigger users_assurance_floor_changed`);
    await database.db.execute(sql`alter table workspaces enable trigger workspaces_api_key_assurance_floor_changed`);
  }
}

describe('a floor change is announced', () => {
  it("on commit, as 'p <user id>' and 'w <workspace id>'; a change rolled back is never announced", async () => {
    const other = await createUser(database.db, { workspaceId });
    const first = await nextAnnouncement();
    await database.db
      .transaction(async (tx) => {
        await tx.update(users).set({ assuranceFloor: 'account' }).where(eq(users.id, other.userId));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await database.db.update(users).set({ assuranceFloor: 'account' }).where(eq(users.id, personId));
    // Notifications arrive in commit order: had the rolled-back change been sent, it would be first.
    expect(await first.payload).toBe(`p ${personId}`);
    await first.stop();

    const second = await nextAnnouncement();
    await database.db.update(workspaces).set({ apiKeyAssuranceFloor: 'account' }).where(eq(workspaces.id, workspaceId));
    expect(await second.payload).toBe(`w ${workspaceId}`);
    await second.stop();

    await database.db.update(users).set({ assuranceFloor: 'link' }).where(eq(users.id, personId));
    await database.db.update(workspaces).set({ apiKeyAssuranceFloor: 'link' }).where(eq(workspaces.id, workspaceId));
  });
});

describe('a floor raised where this process has not heard', () => {
  it("holds for the person's very next form (sess_request and an Ask's refusal)", async () => {
    const before = await createSession({ ctx: asPerson(), input: { interaction: sampleSurface() } });
    expect(before.assurance).toBe('link');
    await silently(() => database.db.update(users).set({ assuranceFloor: 'account' }).where(eq(users.id, personId)));

    const next = await createSession({ ctx: asPerson(), input: { interaction: sampleSurface() } });
    expect(next.assurance).toBe('account');
    expect(await storedAssurance(next.sessionId)).toBe('account');
    await silently(() => database.db.update(users).set({ assuranceFloor: 'link' }).where(eq(users.id, personId)));

    // An Ask is made at link only: under the floor raised unheard, it is refused, not made below it.
    await createAsk({ ctx: asPerson(), input: sampleAskArguments({ max: 3 }) });
    await silently(() => database.db.update(users).set({ assuranceFloor: 'account' }).where(eq(users.id, personId)));
    expect(await refusal(createAsk({ ctx: asPerson(), input: sampleAskArguments({ max: 3 }) }))).toMatchObject({
      code: 'INVALID_ARGUMENTS',
      field: '/respondents',
    });
    await silently(() => database.db.update(users).set({ assuranceFloor: 'link' }).where(eq(users.id, personId)));
  });

  it("holds for the workspace's API-key floor, and the refused try spends no idempotency key", async () => {
    const idem = key();
    const warm = await createSession({ ctx: asApiKey(), input: { interaction: sampleSurface() } });
    expect(warm.assurance).toBe('link');
    await silently(() =>
      database.db.update(workspaces).set({ apiKeyAssuranceFloor: 'account' }).where(eq(workspaces.id, workspaceId)),
    );
    const made = await createSession({ ctx: asApiKey(), input: { interaction: sampleSurface() }, idempotencyKey: idem });
    expect(made.assurance).toBe('account');
    expect(await storedAssurance(made.sessionId)).toBe('account');
    // The key is held by the form that was stored, not by the try that was refused.
    const replay = await createSession({ ctx: asApiKey(), input: { interaction: sampleSurface() }, idempotencyKey: idem });
    expect(replay.sessionId).toBe(made.sessionId);
    await silently(() =>
      database.db.update(workspaces).set({ apiKeyAssuranceFloor: 'link' }).where(eq(workspaces.id, workspaceId)),
    );
  });

  it('holds for a prepared create stored inside withCurrentFloor (the hosted /mcp path)', async () => {
    const make = () =>
      withCurrentFloor(runtime, async () => {
        const prepared = await prepareSession({ ctx: asPerson(), args: { interaction: sampleSurface() } });
        return prepared.store();
      });
    expect((await make()).assurance).toBe('link');
    await silently(() => database.db.update(users).set({ assuranceFloor: 'account' }).where(eq(users.id, personId)));
    const next = await make();
    expect(next.assurance).toBe('account');
    expect(await storedAssurance(next.sessionId)).toBe('account');
    // Stored outside withCurrentFloor, a create decided under a moved floor stores nothing and says so.
    await silently(() => database.db.update(users).set({ assuranceFloor: 'link' }).where(eq(users.id, personId)));
    const stale = await prepareSession({ ctx: asPerson(), args: { interaction: sampleSurface() } });
    await expect(stale.store()).rejects.toMatchObject({ name: 'FloorMovedError' });
    expect(
      await database.db.select({ id: formSessions.id }).from(formSessions).where(eq(formSessions.id, stale.result.sessionId)),
    ).toEqual([]);
  });
});
