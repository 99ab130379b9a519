import { newSecret } from '@sess/core';
import { workspaces } from '@sess/db';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createWorkspace,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessBackend, createPostgresHandleStore } from '../src/index.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.destroy());

describe('the in-process backend', () => {
  it("trusts a workspace's plan for 30 s of the runtime's clock, then reads it again", async () => {
    const clock = createTestClock(new Date());
    const runtime = createTestFormsRuntime(database, { now: clock.now });
    const handles = createPostgresHandleStore({ db: database.db, secret: TEST_SECRET, now: clock.now });
    const backend = createInProcessBackend(runtime, { handles });
    const { workspaceId } = await createWorkspace(database.db, { plan: 'free' });
    // Ten days: past the free plan's link lifetime (7 days), within pro's (30).
    const create = () =>
      backend.createSession(
        { workspaceId, principalId: 'usr_plan' },
        { surface: sampleSurface(), expiresIn: 10 * 86_400, idempotencyKey: newSecret(18) },
      );
    const refused = { details: { limit: 7 * 86_400 } };
    await expect(create()).rejects.toMatchObject(refused);
    await database.db.update(workspaces).set({ plan: 'pro' }).where(eq(workspaces.id, workspaceId));
    await expect(create()).rejects.toMatchObject(refused);
    clock.advance(29_999);
    await expect(create()).rejects.toMatchObject(refused);
    clock.advance(1);
    await expect(create()).resolves.toMatchObject({ workspaceId, state: 'waiting' });
  });
});
