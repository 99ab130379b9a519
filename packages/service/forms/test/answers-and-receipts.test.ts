import { type Database, openDatabase, signingKeys } from '@sess/db';
import {
  createAsk,
  type FormsRuntime,
  readAsk,
  readJwks,
  readSession,
  rotateSigningKeys,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
} from '@sess/forms';
import { createLocalKeySet, verifyReceipt } from '@sess/receipts';
import { hashAnswer, hashSurface } from '@sess/surface';
import {
  createTestDatabase,
  createTestFormsRuntime,
  createTestSession,
  createWorkspace,
  sampleAskArguments,
  sampleSurface,
  TEST_PUBLIC_URL,
  TEST_SECRET,
  type TestDatabase,
  testDriver,
  tokenOf,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../src/test-helpers.ts';

let database: TestDatabase;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;

beforeAll(async () => {
  database = await createTestDatabase({ poolMax: 10 });
  runtime = createTestFormsRuntime(database);
  ctx = { runtime, workspaceId: (await createWorkspace(database.db, { plan: 'pro' })).workspaceId };
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

/** Verifies a receipt against the server's published keys (as an SDK would, with the JWKS document). */
async function verify(receipt: string, expected: Parameters<typeof verifyReceipt>[1]['expected']) {
  const keys = await createLocalKeySet(await readJwks(runtime));
  return verifyReceipt(receipt, { keys, issuer: TEST_PUBLIC_URL, expected });
}

describe('first answer wins', () => {
  it('20 concurrent submits to one revision: exactly one is accepted, the rest are told it already has an answer', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        submitLinkAnswer(runtime, created.token, { revision: 1, actionId: 'approve', submitted: { message: `answer ${i}` } }),
      ),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled' && r.value.ok);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(accepted).toHaveLength(1);
    expect(refused).toHaveLength(19);
    expect(new Set(refused.map((r) => r.reason.code))).toEqual(new Set(['ALREADY_ANSWERED']));
    const winner = (accepted[0] as PromiseFulfilledResult<{ ok: true; eventId: string }>).value.eventId;
    expect((await readSession({ ctx, sessionId: created.sessionId })).response?.eventId).toBe(winner);
  });

  it('an answer for a revision the link never had is a revision mismatch; for an older one, already answered', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    expect(
      await refusal(submitLinkAnswer(runtime, created.token, { revision: 2, actionId: 'approve', submitted: { message: 'x' } })),
    ).toMatchObject({ code: 'REVISION_MISMATCH', currentRevision: 1 });
  });
});

describe('receipts', () => {
  it('verify for exactly that workspace, session, revision, event, Surface and answer', async () => {
    const created = await createTestSession(runtime, ctx.workspaceId);
    const result = await submitLinkAnswer(runtime, created.token, {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'Ship' },
    });
    if (!result.ok) throw new Error('refused');
    const { response } = await readSession({ ctx, sessionId: created.sessionId });
    if (!response) throw new Error('no response');
    expect(response.surfaceSha256).toBe(hashSurface(sampleSurface()));
    expect(response.answerSha256).toBe(hashAnswer({ actionId: 'approve', values: { message: 'Ship' } }));
    const expected = {
      workspaceId: ctx.workspaceId,
      sessionId: created.sessionId,
      revision: 1,
      eventId: result.eventId,
      surfaceSha256: response.surfaceSha256,
      answerSha256: response.answerSha256,
      respondentId: null,
    };
    const ok = await verify(response.receipt, expected);
    expect(ok).toMatchObject({
      ok: true,
      claims: { iss: TEST_PUBLIC_URL, actorAssurance: 'link_holder', event_id: result.eventId },
    });
    const mismatches: Array<[Partial<typeof expected>, string]> = [
      [{ workspaceId: 'ws_other' }, 'WORKSPACE_MISMATCH'],
      [{ sessionId: 'ses_other' }, 'SESSION_MISMATCH'],
      [{ revision: 2 }, 'REVISION_MISMATCH'],
      [{ eventId: 'evt_other' }, 'EVENT_MISMATCH'],
      [{ surfaceSha256: '0'.repeat(64) }, 'SURFACE_MISMATCH'],
      [{ answerSha256: '0'.repeat(64) }, 'ANSWER_MISMATCH'],
    ];
    for (const [change, reason] of mismatches) {
      expect(await verify(response.receipt, { ...expected, ...change })).toMatchObject({ ok: false, reason });
    }
  });

  it('an Ask answer’s receipt names its respondent', async () => {
    const created = await createAsk({ ctx, input: sampleAskArguments({ max: 2 }) });
    const { respondentToken, respondentId } = await startRespondent(runtime, tokenOf(created.humanUrl));
    const result = await submitLinkAnswer(runtime, respondentToken, { revision: 1, submitted: { place: 'City' } });
    if (!result.ok) throw new Error('refused');
    const [answer] = (await readAsk({ ctx, askId: created.askId })).answers;
    const expected = {
      workspaceId: ctx.workspaceId,
      sessionId: created.askId,
      revision: 1,
      eventId: result.eventId,
      surfaceSha256: created.surfaceSha256,
      answerSha256: answer!.answerSha256,
    };
    expect(await verify(answer!.receipt, { ...expected, respondentId })).toMatchObject({ ok: true });
    expect(await verify(answer!.receipt, { ...expected, respondentId: 'rsp_other' })).toMatchObject({
      ok: false,
      reason: 'RESPONDENT_MISMATCH',
    });
  });

  it('the private key is stored sealed, never in clear', async () => {
    await readJwks(runtime);
    const rows = await database.db.select().from(signingKeys).where(eq(signingKeys.status, 'active'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.sealedPrivateJwk).toMatch(/^v1\./);
    expect(JSON.stringify(rows[0])).not.toMatch(/"d":/);
  });

  it('a rotation keeps receipts signed before it verifiable (on this process and on another replica)', async () => {
    // A second process on the same database, which must learn of the rotation from the bus.
    let replica: Database | undefined;
    let replicaRuntime = runtime;
    if (testDriver() === 'postgres') {
      replica = await openDatabase({ url: database.url!, poolMax: 2 });
      replicaRuntime = createTestFormsRuntime(replica);
    }
    try {
      const before = await createTestSession(runtime, ctx.workspaceId);
      const old = await submitLinkAnswer(replicaRuntime, before.token, { revision: 1, actionId: 'stop', submitted: {} });
      if (!old.ok) throw new Error('refused');
      const oldKid = (await replicaRuntime.keyRing()).signer.kid;

      const rotated = await rotateSigningKeys(database.db, { secret: TEST_SECRET, now: new Date() });
      expect(rotated.previousKid).toBe(oldKid);
      // Both processes see the new key once the notification arrives.
      await expect.poll(async () => (await replicaRuntime.keyRing()).signer.kid, { timeout: 5000 }).toBe(rotated.kid);
      await expect.poll(async () => (await runtime.keyRing()).signer.kid, { timeout: 5000 }).toBe(rotated.kid);
      const jwks = await readJwks(runtime);
      expect(jwks.keys.map((k) => k.kid)).toEqual([rotated.kid, oldKid]);

      const after = await createTestSession(runtime, ctx.workspaceId);
      const fresh = await submitLinkAnswer(replicaRuntime, after.token, { revision: 1, actionId: 'stop', submitted: {} });
      if (!fresh.ok) throw new Error('refused');

      for (const [s, eventId] of [
        [before.sessionId, old.eventId],
        [after.sessionId, fresh.eventId],
      ] as const) {
        const { response } = await readSession({ ctx, sessionId: s });
        const outcome = await verify(response!.receipt, {
          workspaceId: ctx.workspaceId,
          sessionId: s,
          revision: 1,
          eventId,
          surfaceSha256: response!.surfaceSha256,
        });
        expect(outcome.ok).toBe(true);
      }
      const header = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString());
      expect(header((await readSession({ ctx, sessionId: before.sessionId })).response!.receipt).kid).toBe(oldKid);
      expect(header((await readSession({ ctx, sessionId: after.sessionId })).response!.receipt).kid).toBe(rotated.kid);

      // A second rotation retires the oldest key: it leaves the JWKS.
      const again = await rotateSigningKeys(database.db, { secret: TEST_SECRET, now: new Date() });
      expect(again.retiredKid).toBe(oldKid);
      await expect
        .poll(async () => (await readJwks(runtime)).keys.map((k) => k.kid), { timeout: 5000 })
        .toEqual([again.kid, rotated.kid]);
    } finally {
      if (replica) {
        await replicaRuntime.close();
        await replica.close();
      }
    }
  });
});
