import type { Client } from '@modelcontextprotocol/client';
import { newId, SessError } from '@sess/core';
import { queryRows } from '@sess/db';
import { completeSession, openLink, publishSession, submitLinkAnswer, withdrawSession } from '@sess/forms';
import { createPostgresHandleStore } from '@sess/hosted';
import type { HandleStoreFactory, SessBackend } from '@sess/interactions';
import {
  createTestDatabase,
  createTestSession,
  createWorkspace,
  sampleSurface,
  TEST_SECRET,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BACKENDS,
  type McpHarness,
  type NetworkFault,
  type SentRequest,
  startMcpHarness,
  structured,
} from './support/mcp-harness.ts';

/*
 * Every error code of the seed's table, each reached through the real MCP client over HTTP,
 * the real forms runtime and the real handle store, on both backends. Where a failure cannot be
 * produced by the runtime on demand (a lost response, a broken store): on the in-process backend
 * a wrapper at the SessBackend boundary injects it around the real implementation; on the HTTP
 * backend the same switch is a fault of the network between the client and the real /v1 server
 * (a refused connection, a gateway's 503, an answer lost after the server handled the request, an
 * answer rewritten on the way back). Broken stores are wrapped at the handle store boundary.
 */

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  response?: { eventId: string; actionId: string; values: Record<string, unknown> };
};
type ToolError = {
  code: string;
  message: string;
  retryable: boolean;
  field?: string;
  limit?: number;
  length?: number;
  reason?: string;
};

/** Switches the tests flip to make the wrapped backend or store misbehave once. */
const faults: {
  nonTransactional?: boolean;
  create?: 'lost' | 'unavailable' | 'refused';
  publish?: 'lost_before' | 'lost_after' | 'refused';
  complete?: 'lost_after';
  read?: 'unavailable' | 'another_session' | 'second_read_unavailable';
  readCount?: number;
  storeUpdate?: 'fail';
  storeInsert?: 'fail';
  brokenStore?: HandleStoreFactory;
} = {};

function lost(): Error {
  return new Error('socket hang up');
}

function faultyBackend(real: SessBackend): SessBackend {
  return {
    ...real,
    get createWithHandle(): SessBackend['createWithHandle'] {
      const write = real.createWithHandle;
      if (faults.nonTransactional || !write) return undefined;
      // The handle record written with the create cannot be made (as a failing insert would).
      return (ctx, input, toRecord) =>
        write(ctx, input, (created) => {
          if (faults.storeInsert === 'fail') throw new SessError('STATE_STORE_ERROR', 'disk full');
          return toRecord(created);
        });
    },
    async createSession(ctx, input) {
      if (faults.create === 'lost') {
        await real.createSession(ctx, input);
        throw lost();
      }
      if (faults.create === 'unavailable') throw new SessError('SESS_UNAVAILABLE', 'down');
      return real.createSession(ctx, input);
    },
    async readSession(ctx, input) {
      faults.readCount = (faults.readCount ?? 0) + 1;
      if (faults.read === 'unavailable') throw new SessError('SESS_UNAVAILABLE', 'down');
      if (faults.read === 'second_read_unavailable' && faults.readCount >= 2) throw lost();
      const view = await real.readSession(ctx, input);
      if (faults.read === 'another_session') return { ...view, sessionId: 'ses_someoneelsesaaaaaaaaaaaaaa' };
      return view;
    },
    async publish(ctx, input) {
      if (faults.publish === 'lost_before') throw lost();
      const view = await real.publish(ctx, input);
      if (faults.publish === 'lost_after') throw lost();
      return view;
    },
  };
}

const isRead = (r: SentRequest) => r.method === 'GET' && /^\/v1\/sessions\/[^/]+$/.test(r.path);

/** The same switches as network faults between the HTTP backend and the real /v1 server. */
function networkFaults(r: SentRequest): NetworkFault | undefined {
  if (r.method === 'POST' && r.path === '/v1/sessions') {
    if (faults.create === 'lost') return 'drop_response';
    // A gateway's 503 on a write: the client cannot tell whether it reached Sess.
    if (faults.create === 'unavailable') return 'gateway_503';
    if (faults.create === 'refused') return 'refuse';
  }
  if (r.method === 'POST' && r.path.endsWith('/publish')) {
    if (faults.publish === 'lost_before') return 'gateway_503';
    if (faults.publish === 'lost_after') return 'drop_response';
    if (faults.publish === 'refused') return 'refuse';
  }
  if (r.method === 'POST' && r.path.endsWith('/complete') && faults.complete === 'lost_after') return 'drop_response';
  if (isRead(r)) {
    faults.readCount = (faults.readCount ?? 0) + 1;
    if (faults.read === 'unavailable') return 'gateway_503';
    if (faults.read === 'second_read_unavailable' && faults.readCount >= 2) return 'refuse';
    if (faults.read === 'another_session')
      return { rewrite: (json) => ({ ...json, sessionId: 'ses_someoneelsesaaaaaaaaaaaaaa' }) };
  }
  return undefined;
}

function faultyStore(factory: HandleStoreFactory): HandleStoreFactory {
  return (binding, principal) => {
    if (faults.brokenStore) return faults.brokenStore(binding, principal);
    const store = factory(binding, principal);
    return {
      ...store,
      binding: store.binding,
      get: (handle) => store.get(handle),
      async insert(record) {
        if (faults.storeInsert === 'fail' && record.state === 'waiting') throw new SessError('STATE_STORE_ERROR', 'disk full');
        return store.insert(record);
      },
      list: (input) => store.list(input),
      async update(handle, version, patch) {
        if (faults.storeUpdate === 'fail' && patch.state === 'waiting') throw new SessError('STATE_STORE_ERROR', 'disk full');
        return store.update(handle, version, patch);
      },
    };
  };
}

beforeEach(() => {
  for (const key of Object.keys(faults)) delete faults[key as keyof typeof faults];
});

describe.each(BACKENDS)('on the %s backend', (backend) => {
  let h: McpHarness;
  let client: Client;
  let token: string;
  beforeAll(async () => {
    h = await startMcpHarness(
      backend === 'http'
        ? { backend, network: networkFaults, wrapStore: faultyStore }
        : { backend, wrapBackend: faultyBackend, wrapStore: faultyStore },
    );
    ({ token } = await h.addPrincipal());
    client = await h.connect(token, 'modern');
  });
  afterAll(async () => h?.close());

  const interactionOf = (result: unknown) =>
    (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;

  async function call(name: string, args: Record<string, unknown>, c: Client = client) {
    return c.callTool({ name, arguments: args });
  }

  async function expectError(promise: Promise<unknown>, code: string): Promise<ToolError> {
    const result = (await promise) as {
      isError?: boolean;
      structuredContent: { error: ToolError };
      content: Array<{ text: string }>;
    };
    expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
    expect(result.structuredContent.error.code).toBe(code);
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    return result.structuredContent.error;
  }

  async function request(c: Client = client): Promise<Interaction> {
    return interactionOf(await call('sess_request', { interaction: sampleSurface() }, c));
  }

  async function answered(c: Client = client): Promise<Interaction> {
    const created = await request(c);
    const ok = await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'ok' },
    });
    expect(ok.ok).toBe(true);
    const read = interactionOf(await call('sess_response', { handle: created.handle, revision: 1 }, c));
    expect(read.state).toBe('answered');
    return { ...read, humanUrl: created.humanUrl! };
  }

  async function stateOf(handle: string): Promise<string> {
    const [row] = await queryRows<{ state: string }>(h.database.db, sql`select state from mcp_handles where handle = ${handle}`);
    return row!.state;
  }

  describe('invalid_arguments', () => {
    it('INVALID_ARGUMENTS: an over-long label names its pointer, limit and length, in the seed words', async () => {
      const error = await expectError(
        call('sess_ask', { question: 'Where?', fields: [{ name: 'place', label: 'x'.repeat(72), type: 'text' }] }),
        'INVALID_ARGUMENTS',
      );
      expect(error).toEqual({
        code: 'INVALID_ARGUMENTS',
        message: '/fields/0/label is 72 characters; the limit is 60. Shorten it to at most 60 characters.',
        retryable: false,
        field: '/fields/0/label',
        limit: 60,
        length: 72,
      });
      const title = await expectError(
        call('sess_request', { interaction: { ...sampleSurface(), title: 'y'.repeat(81) } }),
        'INVALID_ARGUMENTS',
      );
      expect(title).toMatchObject({ field: '/interaction/title', limit: 80, length: 81 });
      expect(title.message).toBe('The title can be at most 80 characters. Keep it to a short heading, about 40.');
      await expectError(call('sess_response', { handle: 'hdl_x', revision: 1, extra: true }), 'INVALID_ARGUMENTS');
      const wait = await expectError(
        call('sess_response', { handle: 'hdl_x', revision: 1, wait_ms: 45_001 }),
        'INVALID_ARGUMENTS',
      );
      expect(wait).toMatchObject({ field: '/wait_ms', limit: 45_000 });
      // Nothing was created by any of them.
      expect(interactionOf).toBeDefined();
    });
  });

  describe('not_found', () => {
    it('HANDLE_NOT_FOUND: an unknown handle, another principal of the workspace, another workspace', async () => {
      await expectError(call('sess_response', { handle: 'hdl_aaaaaaaaaaaaaaaaaaaaaaaaaa', revision: 1 }), 'HANDLE_NOT_FOUND');
      const created = await request();
      const mine = (await h.addPrincipal()).principal;
      const sameWorkspace = await h.addPrincipal({ workspaceId: mine.workspaceId });
      const other = await h.connect(sameWorkspace.token, 'legacy');
      await expectError(call('sess_response', { handle: created.handle, revision: 1 }, other), 'HANDLE_NOT_FOUND');
      await expectError(call('sess_cancel', { handle: created.handle }, other), 'HANDLE_NOT_FOUND');
      const elsewhere = await h.connect((await h.addPrincipal()).token, 'modern');
      await expectError(
        call('sess_complete', { handle: created.handle, expected_revision: 1, response_event_id: 'evt_x' }, elsewhere),
        'HANDLE_NOT_FOUND',
      );
    });

    it('HANDLE_NOT_FOUND: the same person through another app (another OAuth client) — never BINDING_MISMATCH', async () => {
      const { token, principal } = await h.addPrincipal();
      const created = await request(await h.connect(token, 'modern'));
      const otherApp = await h.addPrincipal({
        workspaceId: principal.workspaceId,
        principalId: principal.principalId,
        clientId: newId('oauthClient'),
        grantId: newId('oauthGrant'),
      });
      const other = await h.connect(otherApp.token, 'legacy');
      await expectError(call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }, other), 'HANDLE_NOT_FOUND');
      await expectError(call('sess_cancel', { handle: created.handle }, other), 'HANDLE_NOT_FOUND');
      const listed = structured<{ interactions: unknown[] }>(await other.callTool({ name: 'sess_list', arguments: {} }));
      expect(listed.interactions).toEqual([]);
    });

    it('HANDLE_NOT_FOUND: a handle is bound to the origin it was created under (another accepted Host is another origin)', async () => {
      const { token } = await h.addPrincipal();
      const mine = await h.connect(token, 'modern');
      const created = await request(mine);
      const viaLocalhost = await h.connect(token, 'modern', { url: h.url.replace('127.0.0.1', 'localhost') });
      await expectError(
        call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }, viaLocalhost),
        'HANDLE_NOT_FOUND',
      );
      const listed = structured<{ interactions: unknown[] }>(await viaLocalhost.callTool({ name: 'sess_list', arguments: {} }));
      expect(listed.interactions).toEqual([]);
      // Under the Host it was made with, the handle is there.
      expect(interactionOf(await call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }, mine)).state).toBe(
        'waiting',
      );
    });

    it('BINDING_MISMATCH: the same principal under a re-issued grant (new generation); a refresh keeps it', async () => {
      const { token: t, principal } = await h.addPrincipal();
      const c = await h.connect(t, 'modern');
      const created = await request(c);
      h.setPrincipal(t, { ...principal, expiresAt: Math.floor(Date.now() / 1000) + 7200 });
      expect(interactionOf(await call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }, c)).state).toBe(
        'waiting',
      );
      h.setPrincipal(t, { ...principal, grantGeneration: 2 });
      await expectError(call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }, c), 'BINDING_MISMATCH');
    });
  });

  describe('conflict', () => {
    it('REVISION_MISMATCH, RESPONSE_MISMATCH and INVALID_STATE change nothing', async () => {
      const waiting = await request();
      const mismatch = await expectError(call('sess_response', { handle: waiting.handle, revision: 2 }), 'REVISION_MISMATCH');
      expect(mismatch.message).toContain('revision 1');
      await expectError(
        call('sess_complete', {
          handle: waiting.handle,
          expected_revision: 1,
          response_event_id: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa',
        }),
        'INVALID_STATE',
      );
      const a = await answered();
      await expectError(
        call('sess_complete', { handle: a.handle, expected_revision: 1, response_event_id: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa' }),
        'RESPONSE_MISMATCH',
      );
      await expectError(
        call('sess_complete', { handle: a.handle, expected_revision: 2, response_event_id: a.response!.eventId }),
        'REVISION_MISMATCH',
      );
      expect(await stateOf(a.handle)).toBe('answered');
      const done = interactionOf(
        await call('sess_complete', { handle: a.handle, expected_revision: 1, response_event_id: a.response!.eventId }),
      );
      expect(done.state).toBe('completed');
      await expectError(
        call('sess_publish', {
          handle: a.handle,
          expected_revision: 1,
          response_event_id: a.response!.eventId,
          interaction: sampleSurface(),
        }),
        'INVALID_STATE',
      );
    });

    it('OUTCOME_UNKNOWN → MUTATION_PENDING / PENDING_MUTATION_DIFFERS → the identical repeat reconciles (the publish had landed)', async () => {
      const a = await answered();
      const args = {
        handle: a.handle,
        expected_revision: 1,
        response_event_id: a.response!.eventId,
        interaction: sampleSurface('Next?'),
      };
      faults.publish = 'lost_after';
      const unknown = await expectError(call('sess_publish', args), 'OUTCOME_UNKNOWN');
      expect(unknown.retryable).toBe(true);
      faults.publish = undefined;
      await expectError(call('sess_response', { handle: a.handle, revision: 1 }), 'MUTATION_PENDING');
      await expectError(
        call('sess_complete', { handle: a.handle, expected_revision: 1, response_event_id: a.response!.eventId }),
        'PENDING_MUTATION_DIFFERS',
      );
      await expectError(
        call('sess_publish', { ...args, interaction: sampleSurface('Something else?') }),
        'PENDING_MUTATION_DIFFERS',
      );
      const reconciled = interactionOf(await call('sess_publish', args));
      expect(reconciled).toMatchObject({ state: 'waiting', revision: 2 });
      // A repeat of the confirmed publish succeeds with no request; anything else is refused.
      expect(interactionOf(await call('sess_publish', args))).toMatchObject({ state: 'waiting', revision: 2 });
      await expectError(call('sess_publish', { ...args, interaction: sampleSurface('Other?') }), 'REVISION_MISMATCH');
    });

    it('a publish lost before it was sent is sent by the identical repeat', async () => {
      const a = await answered();
      const args = {
        handle: a.handle,
        expected_revision: 1,
        response_event_id: a.response!.eventId,
        interaction: sampleSurface('Then?'),
      };
      faults.publish = 'lost_before';
      await expectError(call('sess_publish', args), 'OUTCOME_UNKNOWN');
      faults.publish = undefined;
      expect(interactionOf(await call('sess_publish', args))).toMatchObject({ state: 'waiting', revision: 2 });
    });

    it('the saved publish is replayed byte for byte: a record keeps its order, and its answer verifies', async () => {
      const a = await answered();
      const next = sampleSurface('Then?');
      // jsonb would store these keys as mid, zeta, alpha.
      (next.source.components[0] as { fields: Record<string, string> }).fields = { zeta: 'z', alpha: 'a', mid: 'm' };
      const args = { handle: a.handle, expected_revision: 1, response_event_id: a.response!.eventId, interaction: next };
      faults.publish = 'lost_before';
      await expectError(call('sess_publish', args), 'OUTCOME_UNKNOWN');
      faults.publish = undefined;
      expect(interactionOf(await call('sess_publish', args))).toMatchObject({ state: 'waiting', revision: 2 });
      const page = await openLink(h.runtime, tokenOf(a.humanUrl!));
      const record = page.surface.source.components[0] as { fields: Record<string, string> };
      expect(Object.keys(record.fields)).toEqual(['zeta', 'alpha', 'mid']);
      // The replayed Surface hashes as the one the handle saved, so the next answer is released.
      const ok = await submitLinkAnswer(h.runtime, tokenOf(a.humanUrl!), {
        revision: 2,
        actionId: 'approve',
        submitted: { message: 'ok' },
      });
      expect(ok.ok).toBe(true);
      expect(interactionOf(await call('sess_response', { handle: a.handle, revision: 2 })).state).toBe('answered');
    });
  });

  describe('create', () => {
    it('CREATE_REJECTED: an expires_in over the plan ceiling comes back with field and limit; no session exists', async () => {
      const error = await expectError(
        call('sess_request', { interaction: sampleSurface(), expires_in: 8 * 86_400 }),
        'CREATE_REJECTED',
      );
      expect(error).toMatchObject({ retryable: false, field: '/expires_in', limit: 7 * 86_400 });
      const listed = (await call('sess_list', { status: 'all' })).structuredContent as { interactions: unknown[] };
      expect(listed.interactions.every((i) => (i as { state: string }).state !== 'create_intent')).toBe(true);
    });

    it('PLAN_LIMIT_REACHED: the workspace is at its plan limit; nothing is created', async () => {
      const { workspaceId } = await createWorkspace(h.database.db, { plan: 'free' });
      for (let i = 0; i < 100; i++) await createTestSession(h.runtime, workspaceId);
      const c = await h.connect((await h.addPrincipal({ workspaceId })).token, 'legacy');
      await expectError(call('sess_request', { interaction: sampleSurface() }, c), 'PLAN_LIMIT_REACHED');
      expect(
        ((await call('sess_list', { status: 'all' }, c)).structuredContent as { interactions: unknown[] }).interactions,
      ).toEqual([]);
    });

    it('CREATE_OUTCOME_UNKNOWN: a non-transactional create whose outcome was lost is never retried and never left', async () => {
      faults.nonTransactional = true;
      faults.create = 'lost';
      const error = await expectError(call('sess_request', { interaction: sampleSurface() }), 'CREATE_OUTCOME_UNKNOWN');
      expect(error.retryable).toBe(false);
      const handle = /hdl_[a-z2-7]{26}/.exec(error.message)![0];
      expect(await stateOf(handle)).toBe('create_unknown');
      faults.create = undefined;
      await expectError(call('sess_response', { handle, revision: 1 }), 'CREATE_OUTCOME_UNKNOWN');
      await expectError(call('sess_cancel', { handle }), 'CREATE_OUTCOME_UNKNOWN');
      expect(await stateOf(handle)).toBe('create_unknown');
    });

    it('a transient failure of a non-transactional create is outcome-unknown too: a create is never retried', async () => {
      faults.nonTransactional = true;
      faults.create = 'unavailable';
      await expectError(call('sess_request', { interaction: sampleSurface() }), 'CREATE_OUTCOME_UNKNOWN');
    });

    it('CREATED_NOT_SAVED: the session exists but the handle could not be saved', async () => {
      faults.nonTransactional = true;
      faults.storeUpdate = 'fail';
      const error = await expectError(call('sess_request', { interaction: sampleSurface() }), 'CREATED_NOT_SAVED');
      expect(error.retryable).toBe(false);
    });

    it.runIf(backend === 'in-process')(
      'the in-process create writes the handle record with the session: a failing save leaves no session behind',
      async () => {
        faults.storeInsert = 'fail';
        const [before] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from form_sessions`);
        const error = await expectError(call('sess_request', { interaction: sampleSurface() }), 'STATE_STORE_ERROR');
        expect(error.retryable).toBe(true);
        const [after] = await queryRows<{ n: number }>(h.database.db, sql`select count(*)::int as n from form_sessions`);
        expect(after!.n).toBe(before!.n);
      },
    );
  });

  describe('over /v1: lost answers and refused connections at the network', () => {
    async function sessionsOf(workspaceId: string): Promise<number> {
      const [row] = await queryRows<{ n: number }>(
        h.database.db,
        sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`,
      );
      return row!.n;
    }
    async function own() {
      const { token: t, principal } = await h.addPrincipal();
      return { c: await h.connect(t, 'modern'), workspaceId: principal.workspaceId };
    }
    const sentSince = (from: number, match: (r: SentRequest) => boolean) => h.sent.slice(from).filter(match);

    it.runIf(backend === 'http')(
      'CREATE_OUTCOME_UNKNOWN: the server created the session and its answer was lost; the create was sent once and is never sent again',
      async () => {
        const { c, workspaceId } = await own();
        const from = h.sent.length;
        faults.create = 'lost';
        const error = await expectError(call('sess_request', { interaction: sampleSurface() }, c), 'CREATE_OUTCOME_UNKNOWN');
        expect(error.retryable).toBe(false);
        faults.create = undefined;
        // The server did create it: the outcome is unknown to the tools, not to Sess.
        expect(await sessionsOf(workspaceId)).toBe(1);
        const handle = /hdl_[a-z2-7]{26}/.exec(error.message)![0];
        expect(await stateOf(handle)).toBe('create_unknown');
        await expectError(call('sess_response', { handle, revision: 1 }, c), 'CREATE_OUTCOME_UNKNOWN');
        await expectError(call('sess_cancel', { handle }, c), 'CREATE_OUTCOME_UNKNOWN');
        const creates = sentSince(from, (r) => r.method === 'POST' && r.path === '/v1/sessions');
        expect(creates).toHaveLength(1);
        expect(creates[0]!.idempotencyKey).toBeTruthy();
        expect(sentSince(from, (r) => r.method === 'POST' && r.path !== '/v1/sessions')).toEqual([]);
      },
    );

    it.runIf(backend === 'http')(
      'a refused connection on a create: SESS_UNAVAILABLE, nothing created anywhere, and the same call later succeeds',
      async () => {
        const { c, workspaceId } = await own();
        faults.create = 'refused';
        const error = await expectError(call('sess_request', { interaction: sampleSurface('Refused?') }, c), 'SESS_UNAVAILABLE');
        expect(error.retryable).toBe(true);
        faults.create = undefined;
        expect(await sessionsOf(workspaceId)).toBe(0);
        const [left] = await queryRows<{ n: number }>(
          h.database.db,
          // No row at all: the intent of a create that never reached Sess is deleted, as an atomic create leaves none.
          sql`select count(*)::int as n from mcp_handles where workspace_id = ${workspaceId}`,
        );
        expect(left!.n).toBe(0);
        const created = interactionOf(await call('sess_request', { interaction: sampleSurface('Refused?') }, c));
        expect(created.state).toBe('waiting');
        expect(await sessionsOf(workspaceId)).toBe(1);
      },
    );

    it.runIf(backend === 'http')(
      'a publish whose answer was lost: OUTCOME_UNKNOWN; the identical repeat replays the same Idempotency-Key and If-Match and reconciles',
      async () => {
        const { c } = await own();
        const a = await answered(c);
        const args = {
          handle: a.handle,
          expected_revision: 1,
          response_event_id: a.response!.eventId,
          interaction: sampleSurface('Lost answer?'),
        };
        const from = h.sent.length;
        faults.publish = 'lost_after';
        await expectError(call('sess_publish', args, c), 'OUTCOME_UNKNOWN');
        faults.publish = undefined;
        expect(interactionOf(await call('sess_publish', args, c))).toMatchObject({ state: 'waiting', revision: 2 });
        const publishes = sentSince(from, (r) => r.method === 'POST' && r.path.endsWith('/publish'));
        expect(publishes).toHaveLength(2);
        expect(publishes[1]!.idempotencyKey).toBe(publishes[0]!.idempotencyKey);
        expect(publishes.map((r) => r.ifMatch)).toEqual(['"1"', '"1"']);
        // The server published once: revision 2 exists, revision 3 does not.
        const [row] = await queryRows<{ n: number }>(
          h.database.db,
          sql`select count(*)::int as n from form_revisions where session_id = (select session_id from mcp_handles where handle = ${a.handle})`,
        );
        expect(row!.n).toBe(2);
      },
    );

    it.runIf(backend === 'http')(
      'a complete whose answer was lost: OUTCOME_UNKNOWN; the identical repeat replays it and the interaction is completed',
      async () => {
        const { c } = await own();
        const a = await answered(c);
        const args = { handle: a.handle, expected_revision: 1, response_event_id: a.response!.eventId };
        const from = h.sent.length;
        faults.complete = 'lost_after';
        await expectError(call('sess_complete', args, c), 'OUTCOME_UNKNOWN');
        faults.complete = undefined;
        await expectError(call('sess_response', { handle: a.handle, revision: 1 }, c), 'MUTATION_PENDING');
        expect(interactionOf(await call('sess_complete', args, c)).state).toBe('completed');
        const completes = sentSince(from, (r) => r.method === 'POST' && r.path.endsWith('/complete'));
        expect(completes).toHaveLength(2);
        expect(completes[1]!.idempotencyKey).toBe(completes[0]!.idempotencyKey);
        expect(completes.map((r) => r.ifMatch)).toEqual(['"1"', '"1"']);
        expect((await openLink(h.runtime, tokenOf(a.humanUrl!))).state).toBe('completed');
      },
    );

    it.runIf(backend === 'http')(
      'a refused connection on a publish: SESS_UNAVAILABLE, the saved request is taken back and nothing changed',
      async () => {
        const { c } = await own();
        const a = await answered(c);
        const args = {
          handle: a.handle,
          expected_revision: 1,
          response_event_id: a.response!.eventId,
          interaction: sampleSurface('Refused?'),
        };
        faults.publish = 'refused';
        const error = await expectError(call('sess_publish', args, c), 'SESS_UNAVAILABLE');
        expect(error.retryable).toBe(true);
        faults.publish = undefined;
        // Nothing pending: the answer is still released and a different next step is free to go.
        expect(await stateOf(a.handle)).toBe('answered');
        expect(interactionOf(await call('sess_response', { handle: a.handle, revision: 1 }, c)).state).toBe('answered');
        expect(
          interactionOf(
            await call('sess_complete', { handle: a.handle, expected_revision: 1, response_event_id: a.response!.eventId }, c),
          ).state,
        ).toBe('completed');
      },
    );
  });

  describe('blocked', () => {
    it('VERIFICATION_FAILED: a tampered receipt blocks the interaction; then RECOVERY_BLOCKED', async () => {
      const created = await request();
      await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'pay 10' },
      });
      // Someone edits the stored answer: the values no longer match what was signed.
      await h.database.db.execute(
        sql`update form_answers set values = '{"message":"pay 10000"}'::jsonb where session_id = (select session_id from mcp_handles where handle = ${created.handle})`,
      );
      const error = await expectError(call('sess_response', { handle: created.handle, revision: 1 }), 'VERIFICATION_FAILED');
      expect(error.reason).toBe('ANSWER_MISMATCH');
      expect(await stateOf(created.handle)).toBe('blocked');
      const blocked = await expectError(call('sess_response', { handle: created.handle, revision: 1 }), 'RECOVERY_BLOCKED');
      expect(blocked.reason).toBe('verification_failed');
    });

    it('a receipt whose signature was tampered with: VERIFICATION_FAILED (BAD_SIGNATURE), blocked, nothing released', async () => {
      const created = await request();
      await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'ok' },
      });
      const [row] = await queryRows<{ id: string; receipt: string }>(
        h.database.db,
        sql`select a.id, a.receipt from form_answers a join mcp_handles m on m.session_id = a.session_id where m.handle = ${created.handle}`,
      );
      const [header, payload, signature] = row!.receipt.split('.') as [string, string, string];
      const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
      await h.database.db.execute(
        sql`update form_answers set receipt = ${`${header}.${payload}.${flipped}`} where id = ${row!.id}`,
      );
      const result = await call('sess_response', { handle: created.handle, revision: 1 });
      const error = await expectError(Promise.resolve(result), 'VERIFICATION_FAILED');
      expect(error.reason).toBe('BAD_SIGNATURE');
      expect(JSON.stringify(result)).not.toContain('"message":"ok"');
      expect(await stateOf(created.handle)).toBe('blocked');
    });

    it('a receipt signed for another session is refused the same way', async () => {
      const created = await request();
      const other = await createTestSession(h.runtime, (await createWorkspace(h.database.db)).workspaceId);
      await submitLinkAnswer(h.runtime, other.token, { revision: 1, actionId: 'approve', submitted: { message: 'x' } });
      await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'x' },
      });
      await h.database.db.execute(
        sql`update form_answers set receipt = (select receipt from form_answers where session_id = ${other.sessionId})
           where session_id = (select session_id from mcp_handles where handle = ${created.handle})`,
      );
      const error = await expectError(call('sess_response', { handle: created.handle, revision: 1 }), 'VERIFICATION_FAILED');
      expect(['WORKSPACE_MISMATCH', 'SESSION_MISMATCH', 'EVENT_MISMATCH']).toContain(error.reason);
    });

    it('RECOVERY_BLOCKED: the session moved on after the answer was saved', async () => {
      const a = await answered();
      const sessionId = (
        await queryRows<{ session_id: string }>(h.database.db, sql`select session_id from mcp_handles where handle = ${a.handle}`)
      )[0]!.session_id;
      const ctx = {
        runtime: h.runtime,
        workspaceId: (
          await queryRows<{ workspace_id: string }>(
            h.database.db,
            sql`select workspace_id from mcp_handles where handle = ${a.handle}`,
          )
        )[0]!.workspace_id,
      };
      await publishSession({
        ctx,
        sessionId,
        expectedRevision: 1,
        idempotencyKey: 'someone-else-1',
        input: { response_event_id: a.response!.eventId, interaction: sampleSurface('Not from this agent') },
      });
      const error = await expectError(call('sess_response', { handle: a.handle, revision: 1 }), 'RECOVERY_BLOCKED');
      expect(error.reason).toBe('moved_on');
      expect(await stateOf(a.handle)).toBe('blocked');
    });

    it('completed at the same revision by another path still releases the answer (the seed allows it)', async () => {
      const a = await answered();
      const [row] = await queryRows<{ session_id: string; workspace_id: string }>(
        h.database.db,
        sql`select session_id, workspace_id from mcp_handles where handle = ${a.handle}`,
      );
      await completeSession({
        ctx: { runtime: h.runtime, workspaceId: row!.workspace_id },
        sessionId: row!.session_id,
        expectedRevision: 1,
        idempotencyKey: 'someone-else-2',
        input: { response_event_id: a.response!.eventId },
      });
      expect(interactionOf(await call('sess_response', { handle: a.handle, revision: 1 })).state).toBe('answered');
    });

    it('MUTATION_REJECTED: a saved publish that the runtime definitively refuses blocks the handle', async () => {
      const a = await answered();
      const [row] = await queryRows<{ session_id: string; workspace_id: string }>(
        h.database.db,
        sql`select session_id, workspace_id from mcp_handles where handle = ${a.handle}`,
      );
      await withdrawSession({ ctx: { runtime: h.runtime, workspaceId: row!.workspace_id }, sessionId: row!.session_id });
      const error = await expectError(
        call('sess_publish', {
          handle: a.handle,
          expected_revision: 1,
          response_event_id: a.response!.eventId,
          interaction: sampleSurface(),
        }),
        'MUTATION_REJECTED',
      );
      expect(error.reason).toBe('INVALID_STATE');
      const blocked = await expectError(call('sess_response', { handle: a.handle, revision: 1 }), 'RECOVERY_BLOCKED');
      expect(blocked.reason).toBe('mutation_rejected');
    });
  });

  describe('unavailable, configuration and store', () => {
    it('SESS_UNAVAILABLE: a failed read changes nothing and may be retried', async () => {
      const created = await request();
      faults.read = 'unavailable';
      const error = await expectError(
        call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }),
        'SESS_UNAVAILABLE',
      );
      expect(error.retryable).toBe(true);
      faults.read = undefined;
      expect(interactionOf(await call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 })).state).toBe(
        'waiting',
      );
    });

    it('SESS_UNAVAILABLE when the confirming read after verification fails: no answer released, nothing saved', async () => {
      const created = await request();
      await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'ok' },
      });
      faults.read = 'second_read_unavailable';
      faults.readCount = 0;
      const result = (await call('sess_response', { handle: created.handle, revision: 1 })) as {
        structuredContent: Record<string, unknown>;
      };
      expect(result.structuredContent).toMatchObject({ error: { code: 'SESS_UNAVAILABLE' } });
      expect(JSON.stringify(result)).not.toContain('"ok"');
      expect(await stateOf(created.handle)).toBe('waiting');
      faults.read = undefined;
      expect(interactionOf(await call('sess_response', { handle: created.handle, revision: 1 })).state).toBe('answered');
    });

    it('SESS_PROTOCOL_ERROR: an inconsistent answer from the runtime fails closed and changes nothing', async () => {
      const created = await request();
      faults.read = 'another_session';
      const error = await expectError(
        call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }),
        'SESS_PROTOCOL_ERROR',
      );
      expect(error.retryable).toBe(false);
      expect(await stateOf(created.handle)).toBe('waiting');
    });

    it('STATE_STORE_ERROR: the handle store cannot be reached (retryable)', async () => {
      const broken: TestDatabase = await createTestDatabase();
      const store = createPostgresHandleStore({ db: broken.db, secret: TEST_SECRET });
      await broken.destroy();
      faults.brokenStore = store.bind;
      const error = await expectError(call('sess_list', {}), 'STATE_STORE_ERROR');
      expect(error.retryable).toBe(true);
    });

    it('STATE_STORE_FULL: at most 100 unfinished interactions per principal', async () => {
      const { workspaceId } = await createWorkspace(h.database.db, { plan: 'pro' });
      const c = await h.connect((await h.addPrincipal({ workspaceId })).token, 'modern');
      const ask = { question: 'Ok?', fields: [{ name: 'ok', label: 'Ok?', type: 'boolean' }] };
      for (let i = 0; i < 100; i++) expect((await call('sess_ask', ask, c)).isError).toBeFalsy();
      const full = await expectError(call('sess_ask', ask, c), 'STATE_STORE_FULL');
      expect(full).toMatchObject({ retryable: false, limit: 100 });
      // Finishing one frees a place.
      const [first] = ((await call('sess_list', { limit: 1 }, c)).structuredContent as { interactions: Interaction[] })
        .interactions;
      expect(interactionOf(await call('sess_cancel', { handle: first!.handle }, c)).state).toBe('cancelled');
      expect((await call('sess_ask', ask, c)).isError).toBeFalsy();
    });
  });

  describe('a key refused while a publish is saved', () => {
    it.runIf(backend === 'http')(
      'NOT_CONFIGURED, not blocked, nothing applied; the identical call replays the saved publish once the key is fixed',
      async () => {
        const { workspaceId } = await createWorkspace(h.database.db);
        const own = await h.addPrincipal({ workspaceId });
        const liveKey = own.principal.credential!;
        let refuse = false;
        h.setPrincipal(own.token, { ...own.principal, credential: async () => (refuse ? 'sess_not_a_live_key' : liveKey()) });
        const c = await h.connect(own.token, 'modern');
        const a = await answered(c);
        const args = {
          handle: a.handle,
          expected_revision: 1,
          response_event_id: a.response!.eventId,
          interaction: sampleSurface('Key rotated?'),
        };
        refuse = true;
        const error = await expectError(call('sess_publish', args, c), 'NOT_CONFIGURED');
        expect(error.retryable).toBe(false);
        expect(await stateOf(a.handle)).toBe('answered');
        const [before] = await queryRows<{ n: number }>(
          h.database.db,
          sql`select count(*)::int as n from form_revisions where session_id = (select session_id from mcp_handles where handle = ${a.handle})`,
        );
        expect(before!.n).toBe(1);
        refuse = false;
        expect(interactionOf(await call('sess_publish', args, c))).toMatchObject({ state: 'waiting', revision: 2 });
      },
    );
  });

  describe('NOT_CONFIGURED over /v1', () => {
    it.runIf(backend === 'http')('a key /v1 refuses (401): NOT_CONFIGURED, not retryable, and no form is created', async () => {
      const { workspaceId } = await createWorkspace(h.database.db);
      const wrong = await h.addPrincipal({ workspaceId, credential: async () => 'sess_not_a_live_key' });
      const c = await h.connect(wrong.token, 'modern');
      const error = await expectError(call('sess_request', { interaction: sampleSurface() }, c), 'NOT_CONFIGURED');
      expect(error.retryable).toBe(false);
      const [row] = await queryRows<{ n: number }>(
        h.database.db,
        sql`select count(*)::int as n from form_sessions where workspace_id = ${workspaceId}`,
      );
      expect(row!.n).toBe(0);
      expect(
        ((await call('sess_list', { status: 'all' }, c)).structuredContent as { interactions: unknown[] }).interactions,
      ).toEqual([]);
    });
  });

  describe('NOT_CONFIGURED', () => {
    let bare: McpHarness;
    beforeAll(async () => {
      bare = await startMcpHarness({ backend, handler: { receipts: undefined } });
    });
    afterAll(async () => bare?.close());

    it('an answer cannot be released without a receipt key set: NOT_CONFIGURED, nothing changed', async () => {
      const c = await bare.connect((await bare.addPrincipal()).token, 'legacy');
      const created = interactionOf(await c.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
      await submitLinkAnswer(bare.runtime, tokenOf(created.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'x' },
      });
      await expectError(
        c.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } }),
        'NOT_CONFIGURED',
      );
    });
  });
});
