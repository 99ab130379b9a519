import { isSessError, newId } from '@sess/core';
import {
  type HandleBinding,
  type HandleRecord,
  type HandleStore,
  MAX_UNFINISHED_PER_PRINCIPAL,
  type SavedResponse,
} from '@sess/interactions';
import { describe, expect, it } from 'vitest';

/** One store under test, fresh for each test: its own principal (and profile or directory). */
export interface HandleStoreUnderTest {
  /** A store view bound to `binding`. */
  bind(binding: HandleBinding): HandleStore;
  /** A binding no other test uses. */
  binding: HandleBinding;
  /** A workspace other than `binding.workspaceId`, one the store can hold records for. */
  otherWorkspaceId: string;
}

let clock = Date.parse('2030-01-01T00:00:00Z');

/** A record of `binding`, each one a second newer than the last. */
export function sampleHandleRecord(binding: HandleBinding, overrides: Partial<HandleRecord> = {}): HandleRecord {
  clock += 1000;
  const at = new Date(clock).toISOString();
  return {
    ...binding,
    handle: newId('handle'),
    kind: 'interaction',
    state: 'waiting',
    version: 1,
    revision: 1,
    title: 'Approve this commit?',
    sessionId: newId('session'),
    surfaceSha256: 'a'.repeat(64),
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

const savedResponse = (pin: string): SavedResponse => ({
  eventId: 'evt_1',
  revision: 1,
  actionId: 'approve',
  values: { pin },
  receipt: 'x.y.z',
  answeredAt: '2030-01-01T00:00:00.000Z',
});

/**
 * The behaviour every `HandleStore` owes the verbs (packages/host-free/interactions, ports/handle-store.ts),
 * run against each implementation: the PostgreSQL store on both drivers and the file store.
 * What only one store does (sealing in the table, the retention sweep, modes on disk) stays in
 * that store's own tests.
 */
export function describeHandleStoreContract(name: string, makeStore: () => Promise<HandleStoreUnderTest>): void {
  describe(`${name}: the HandleStore contract`, () => {
    it('gives back exactly the record it was given, every optional field included', async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      const full = sampleHandleRecord(binding, {
        kind: 'ask',
        state: 'answered',
        askId: newId('ask'),
        revision: 3,
        expiresAt: '2030-01-02T00:00:00.000Z',
        intent: { tool: 'sess_ask', idempotencyKey: 'idem-1', requestSha256: 'b'.repeat(64) },
        pending: {
          kind: 'complete',
          expectedRevision: 3,
          responseEventId: 'evt_1',
          requestSha256: 'c'.repeat(64),
          idempotencyKey: 'k2',
        },
        confirmed: {
          kind: 'publish',
          expectedRevision: 2,
          requestSha256: 'd'.repeat(64),
          idempotencyKey: 'k1',
          surface: { title: 'Next' },
          surfaceSha256: 'e'.repeat(64),
          resultRevision: 3,
        },
        humanUrl: 'https://sess.test/s/link-token',
        response: savedResponse('1234'),
        blockedReason: 'none yet',
      });
      await store.insert(full);
      expect(await store.get(full.handle)).toEqual(full);
      const minimal = sampleHandleRecord(binding, { state: 'create_intent', sessionId: undefined, surfaceSha256: undefined });
      await store.insert(minimal);
      const { sessionId: _s, surfaceSha256: _h, ...expected } = minimal;
      expect(await store.get(minimal.handle)).toEqual(expected);
    });

    it('an unknown handle is undefined: get, update and removeIntent change nothing', async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      const handle = newId('handle');
      expect(await store.get(handle)).toBeUndefined();
      expect(await store.update(handle, 1, { state: 'blocked' })).toBeUndefined();
      expect(await store.removeIntent(handle, 1)).toBe(false);
    });

    it('keeps the link and the answer until a patch clears them (completion)', async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      const r = sampleHandleRecord(binding, { humanUrl: 'https://sess.test/s/the-secret-link-token' });
      await store.insert(r);
      const answered = await store.update(r.handle, 1, {
        state: 'answered',
        sealed: { humanUrl: 'https://sess.test/s/the-secret-link-token', response: savedResponse('9876') },
      });
      expect(answered?.response?.values).toEqual({ pin: '9876' });
      expect((await store.get(r.handle))?.response?.values).toEqual({ pin: '9876' });
      const completed = await store.update(r.handle, 2, { state: 'completed', sealed: null });
      expect(completed).toMatchObject({ state: 'completed', version: 3 });
      expect(completed?.humanUrl).toBeUndefined();
      expect(completed?.response).toBeUndefined();
      const read = await store.get(r.handle);
      expect(read?.humanUrl).toBeUndefined();
      expect(read?.response).toBeUndefined();
    });

    it('a patch: undefined leaves a field, null clears it, sealed is replaced as a whole', async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      const r = sampleHandleRecord(binding, {
        expiresAt: '2030-01-02T00:00:00.000Z',
        intent: { tool: 'sess_request', idempotencyKey: 'idem', requestSha256: 'b'.repeat(64) },
        pending: { kind: 'cancel', expectedRevision: 1, requestSha256: 'c'.repeat(64), idempotencyKey: 'k' },
        blockedReason: 'x',
        humanUrl: 'https://sess.test/s/link',
        response: savedResponse('1'),
      });
      await store.insert(r);
      const kept = await store.update(r.handle, 1, { revision: 2 });
      expect(kept).toEqual({ ...r, revision: 2, version: 2, updatedAt: kept!.updatedAt });
      const cleared = await store.update(r.handle, 2, {
        expiresAt: null,
        intent: null,
        pending: null,
        blockedReason: null,
        sealed: { humanUrl: 'https://sess.test/s/link' },
      });
      expect(cleared).toMatchObject({ version: 3, humanUrl: 'https://sess.test/s/link' });
      for (const field of ['expiresAt', 'intent', 'pending', 'blockedReason', 'response'] as const) {
        expect(cleared?.[field]).toBeUndefined();
      }
      expect(await store.get(r.handle)).toEqual(cleared);
    });

    it('compare-and-set: an update at a stale version changes nothing', async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      const r = sampleHandleRecord(binding);
      await store.insert(r);
      expect(await store.update(r.handle, 1, { state: 'answered' })).toMatchObject({ version: 2 });
      expect(await store.update(r.handle, 1, { state: 'blocked' })).toBeUndefined();
      expect(await store.get(r.handle)).toMatchObject({ state: 'answered', version: 2 });
    });

    it('compare-and-set: of concurrent updates at one version exactly one wins', async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      const r = sampleHandleRecord(binding);
      await store.insert(r);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => store.update(r.handle, 1, { blockedReason: `call ${i}`, state: 'blocked' })),
      );
      const winners = results.filter((result) => result !== undefined);
      expect(winners).toHaveLength(1);
      expect(await store.get(r.handle)).toEqual(winners[0]);
    });

    it('removeIntent deletes only a create_intent at its version, in the binding workspace', async () => {
      const { bind, binding, otherWorkspaceId } = await makeStore();
      const store = bind(binding);
      const intent = sampleHandleRecord(binding, { state: 'create_intent', sessionId: undefined });
      await store.insert(intent);
      expect(await bind({ ...binding, workspaceId: otherWorkspaceId }).removeIntent(intent.handle, 1)).toBe(false);
      expect(await store.removeIntent(intent.handle, 2)).toBe(false);
      expect(await store.get(intent.handle)).toBeDefined();
      expect(await store.removeIntent(intent.handle, 1)).toBe(true);
      expect(await store.get(intent.handle)).toBeUndefined();
      // Anything past the intent is kept, whatever its version.
      const waiting = sampleHandleRecord(binding);
      await store.insert(waiting);
      expect(await store.removeIntent(waiting.handle, 1)).toBe(false);
      expect((await store.get(waiting.handle))?.state).toBe('waiting');
    });

    it('reads and writes are scoped to the binding workspace', async () => {
      const { bind, binding, otherWorkspaceId } = await makeStore();
      const r = sampleHandleRecord(binding);
      await bind(binding).insert(r);
      const elsewhere = bind({ ...binding, workspaceId: otherWorkspaceId });
      expect(await elsewhere.get(r.handle)).toBeUndefined();
      expect(await elsewhere.update(r.handle, 1, { state: 'blocked' })).toBeUndefined();
      expect(await bind(binding).get(r.handle)).toMatchObject({ state: 'waiting', version: 1 });
    });

    it('within the workspace the record comes back with its own binding, for the verbs to re-check', async () => {
      // loadHandle (interactions) turns another grant generation into BINDING_MISMATCH and another
      // principal, origin or client into HANDLE_NOT_FOUND; it can only do so if the store hands the
      // record back with the binding it was created under.
      const { bind, binding } = await makeStore();
      const r = sampleHandleRecord(binding);
      await bind(binding).insert(r);
      const renewed = bind({ ...binding, grantGeneration: binding.grantGeneration + 1 });
      expect(await renewed.get(r.handle)).toMatchObject({ grantGeneration: binding.grantGeneration, grantId: binding.grantId });
      const otherOrigin = bind({ ...binding, origin: 'https://elsewhere.test' });
      expect(await otherOrigin.get(r.handle)).toMatchObject({ origin: binding.origin });
    });

    it(`at most ${MAX_UNFINISHED_PER_PRINCIPAL} unfinished, exact under concurrent inserts; finished ones do not count`, async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      for (let i = 0; i < MAX_UNFINISHED_PER_PRINCIPAL - 5; i++) await store.insert(sampleHandleRecord(binding));
      await store.insert(sampleHandleRecord(binding, { state: 'completed' }));
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => store.insert(sampleHandleRecord(binding))));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        const reason = (r as PromiseRejectedResult).reason;
        expect(isSessError(reason) && reason.code).toBe('STATE_STORE_FULL');
        expect(reason).toMatchObject({ retryable: false, details: { limit: MAX_UNFINISHED_PER_PRINCIPAL } });
      }
      expect((await store.list({ status: 'open', limit: 500 })).records).toHaveLength(MAX_UNFINISHED_PER_PRINCIPAL);
    });

    it('lists the binding’s own handles newest first, with a cursor and a status filter', async () => {
      const { bind, binding } = await makeStore();
      const store = bind(binding);
      for (let i = 0; i < 5; i++)
        await store.insert(sampleHandleRecord(binding, { title: `Q${i}`, state: i === 0 ? 'cancelled' : 'waiting' }));
      await store.insert(sampleHandleRecord(binding, { title: 'review', state: 'create_unknown' }));
      const renewed = { ...binding, grantGeneration: binding.grantGeneration + 1 };
      await bind(renewed).insert(sampleHandleRecord(renewed, { title: 'newer grant' }));
      const first = await store.list({ status: 'open', limit: 2 });
      expect(first.records.map((r) => r.title)).toEqual(['review', 'Q4']);
      const second = await store.list({ status: 'open', limit: 2, cursor: first.nextCursor! });
      expect(second.records.map((r) => r.title)).toEqual(['Q3', 'Q2']);
      const third = await store.list({ status: 'open', limit: 2, cursor: second.nextCursor! });
      expect(third.records.map((r) => r.title)).toEqual(['Q1']);
      expect(third.nextCursor).toBeUndefined();
      expect((await store.list({ status: 'cancelled', limit: 10 })).records.map((r) => r.title)).toEqual(['Q0']);
      expect((await store.list({ status: 'blocked', limit: 10 })).records.map((r) => r.title)).toEqual(['review']);
      expect((await store.list({ status: 'waiting', limit: 10 })).records).toHaveLength(4);
      expect((await store.list({ status: 'all', limit: 10 })).records).toHaveLength(6);
      expect((await bind(renewed).list({ status: 'all', limit: 10 })).records.map((r) => r.title)).toEqual(['newer grant']);
      await expect(store.list({ status: 'all', limit: 10, cursor: 'garbage' })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENTS',
        details: { field: '/cursor' },
      });
    });

    it('a list of a binding with no handles is empty', async () => {
      const { bind, binding } = await makeStore();
      expect(await bind(binding).list({ status: 'all', limit: 10 })).toEqual({ records: [] });
    });
  });
}
