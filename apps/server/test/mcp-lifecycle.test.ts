import { Writable } from 'node:stream';
import { ASK_OPEN_LINE, type AskDecision, type AskView, decisionLine } from '@sess/contract';
import { queryRows } from '@sess/db';
import { openLink, startRespondent, submitLinkAnswer } from '@sess/forms';
import type { SessBackend } from '@sess/interactions';
import { createManualTimers, createTestLogger, sampleSurface, tokenOf } from '@sess/testkit';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type McpHarness, startMcpHarness } from './support/mcp-harness.ts';

/*
 * The life of a handle beyond the happy path: Asks, expiry, cancel, the list, the request
 * deadline during a wait, and a client that goes away mid-call. Real runtime, real store, real
 * MCP client over HTTP, on both backends (in-process, and HTTP to the real /v1 server); the only
 * wrapper is a gate around the backend's create and reads, to hold a create in flight while the
 * client disconnects and to see when a parked read ends.
 */

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  expiresAt?: string;
  ask?: {
    id: string;
    open: boolean;
    counts: { started: number; answered: number; max: number };
    answers?: Array<{
      respondentId: string;
      actionId: string;
      values: Record<string, unknown>;
      verified: boolean;
      name?: string;
    }>;
    decision?: AskDecision;
  };
};

const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;
const errorOf = (result: unknown) => (result as { structuredContent: { error: { code: string } } }).structuredContent.error;

/** A read the gate saw: `ended` settles when the backend's read returns or throws. */
type GatedRead = { ended: Promise<void> };
const gate: {
  hold?: Promise<void>;
  entered?: () => void;
  reads: GatedRead[];
  /** Rewrites what an Ask read returns (a server, or a path, that drops or adds a vote). */
  tamperAsk?: (view: AskView) => AskView;
} = { reads: [] };
function gated(real: SessBackend): SessBackend {
  return {
    ...real,
    async readAsk(ctx, input) {
      const read = await real.readAsk(ctx, input);
      return gate.tamperAsk ? { ...gate.tamperAsk(read), workspaceId: read.workspaceId } : read;
    },
    async createSession(ctx, input) {
      gate.entered?.();
      if (gate.hold) await gate.hold;
      return real.createSession(ctx, input);
    },
    ...(real.createWithHandle
      ? {
          async createWithHandle(ctx, input, toRecord) {
            gate.entered?.();
            if (gate.hold) await gate.hold;
            return real.createWithHandle!(ctx, input, toRecord);
          },
        }
      : {}),
    async readSession(ctx, input) {
      let end!: () => void;
      gate.reads.push({ ended: new Promise<void>((resolve) => (end = resolve)) });
      try {
        return await real.readSession(ctx, input);
      } finally {
        end();
      }
    },
  };
}

/**
 * The requests' deadlines run on timers the test holds: none expires by itself, and
 * `deadlines.fire()` ends every one in flight — so the deadline test ends a parked wait when it
 * chooses, not on a timer.
 */
const deadlines = createManualTimers();

const lines: string[] = [];
describe.each(BACKENDS)('on the %s backend', (backend) => {
  let h: McpHarness;
  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _e, done) {
        lines.push(String(chunk));
        done();
      },
    });
    h = await startMcpHarness({
      backend,
      wrapBackend: gated,
      logger: createTestLogger({ level: 'debug', destination }),
      handler: { deadlineTimers: deadlines },
    });
  });
  afterAll(async () => h?.close());

  describe('Asks', () => {
    it('max 3 and five respondents: exactly three answers, each verified; then closed', async () => {
      const client = await h.connect((await h.addPrincipal()).token, 'modern');
      const created = interactionOf(
        await client.callTool({
          name: 'sess_ask',
          arguments: {
            question: 'Where should we go on Saturday?',
            fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] }],
            respondents: { max: 3, name: true },
          },
        }),
      );
      expect(created.ask).toMatchObject({ open: true, counts: { started: 0, answered: 0, max: 3 } });
      const shared = tokenOf(created.humanUrl!);
      const starts = await Promise.allSettled([1, 2, 3, 4, 5].map(() => startRespondent(h.runtime, shared)));
      const started = starts
        .filter((s) => s.status === 'fulfilled')
        .map((s) => (s as PromiseFulfilledResult<{ respondentToken: string }>).value);
      expect(started).toHaveLength(3);
      expect(starts.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason.code)).toEqual([
        'ASK_FULL',
        'ASK_FULL',
      ]);

      const midwayRead = await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } });
      const midway = interactionOf(midwayRead);
      expect(midway).toMatchObject({ state: 'waiting', ask: { open: true, counts: { started: 3, answered: 0 } } });
      // An open Ask gets its own line (read again later; no three-call rule), then the same JSON.
      const midwayText = (midwayRead.content as Array<{ text: string }>)[0]!.text;
      expect(midwayText.startsWith(`${ASK_OPEN_LINE}\n\n`)).toBe(true);
      expect(JSON.parse(midwayText.slice(ASK_OPEN_LINE.length + 2))).toEqual(midwayRead.structuredContent);
      const names = ['Ana', 'Bo', 'Cy'];
      for (const [i, respondent] of started.entries()) {
        const ok = await submitLinkAnswer(h.runtime, respondent.respondentToken, {
          revision: 1,
          submitted: { respondent_name: names[i]!, place: 'Beach' },
        });
        expect(ok.ok).toBe(true);
      }
      const read = await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } });
      const done = interactionOf(read);
      expect(done.state).toBe('closed');
      expect(done.ask?.counts).toEqual({ started: 3, answered: 3, max: 3 });
      expect(done.ask?.answers).toHaveLength(3);
      expect(done.ask?.answers?.every((a) => a.verified && a.values.place === 'Beach')).toBe(true);
      expect(done.ask?.answers?.map((a) => a.name).sort()).toEqual(names);
      // A closed Ask has no line at all: nothing more will come.
      expect((read.content as Array<{ text: string }>)[0]!.text.startsWith('{')).toBe(true);

      const publish = await client.callTool({
        name: 'sess_publish',
        arguments: {
          handle: created.handle,
          expected_revision: 1,
          response_event_id: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa',
          interaction: sampleSurface(),
        },
      });
      expect(errorOf(publish).code).toBe('INVALID_STATE');
      const complete = await client.callTool({
        name: 'sess_complete',
        arguments: { handle: created.handle, expected_revision: 1, response_event_id: 'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa' },
      });
      expect(errorOf(complete).code).toBe('INVALID_STATE');
    });
  });

  describe('Asks that decide', () => {
    it.each(['modern', 'legacy'] as const)(
      '2 of 3 with one reject, in the %s era: pending with its counts, then approved with every verified answer and the line that says so',
      async (era) => {
        const client = await h.connect((await h.addPrincipal()).token, era);
        const created = interactionOf(
          await client.callTool({
            name: 'sess_ask',
            arguments: {
              question: 'Ship the release?',
              fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
              respondents: { max: 3, decide: 'quorum', quorum: 2 },
            },
          }),
        );
        const shared = tokenOf(created.humanUrl!);
        const pages = [];
        for (let i = 0; i < 3; i++) pages.push((await startRespondent(h.runtime, shared)).respondentToken);
        const press = (page: string, actionId: string) =>
          submitLinkAnswer(h.runtime, page, { revision: 1, actionId, submitted: {} });
        await press(pages[0]!, 'approve');
        await press(pages[1]!, 'reject');

        const pendingRead = await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } });
        const pending = interactionOf(pendingRead);
        expect(pending).toMatchObject({
          state: 'waiting',
          ask: { open: true, decision: { rule: 'quorum', quorum: 2, outcome: 'pending', approved: 1, rejected: 1 } },
        });
        const pendingText = (pendingRead.content as Array<{ text: string }>)[0]!.text;
        expect(pendingText.split('\n').slice(0, 2)).toEqual([decisionLine(pending.ask!.decision!), ASK_OPEN_LINE]);

        await press(pages[2]!, 'approve');
        const decidedRead = await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } });
        const decided = interactionOf(decidedRead);
        expect(decided).toMatchObject({
          state: 'closed',
          ask: { open: false, decision: { outcome: 'approved', approved: 2, rejected: 1, approveAt: 2, rejectAt: 2 } },
        });
        expect(decided.ask?.answers?.map((a) => [a.actionId, a.verified])).toEqual(
          expect.arrayContaining([
            ['approve', true],
            ['reject', true],
            ['approve', true],
          ]),
        );
        const decidedText = (decidedRead.content as Array<{ text: string }>)[0]!.text;
        expect(decidedText.split('\n')[0]).toBe(
          'Decided: approved (2 approved, 1 rejected; 2 approvals decide). You may carry on with what was approved.',
        );
      },
    );
  });

  describe('a decision that is not its answers', () => {
    it('one vote dropped on the way: sess_response refuses it (VERIFICATION_FAILED) and blocks the handle', async () => {
      const client = await h.connect((await h.addPrincipal()).token, 'modern');
      const created = interactionOf(
        await client.callTool({
          name: 'sess_ask',
          arguments: {
            question: 'Ship the release?',
            fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
            respondents: { max: 3, decide: 'all' },
          },
        }),
      );
      const shared = tokenOf(created.humanUrl!);
      for (const actionId of ['approve', 'reject']) {
        const page = (await startRespondent(h.runtime, shared)).respondentToken;
        await submitLinkAnswer(h.runtime, page, { revision: 1, actionId, submitted: {} });
      }
      // The reject (which decided) is dropped from the read, and the counts made to agree with it.
      gate.tamperAsk = (view) => ({
        ...view,
        answers: view.answers.filter((a) => a.actionId !== 'reject'),
        decision: { ...view.decision!, rejected: 0 },
      });
      try {
        const read = await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } });
        expect(errorOf(read).code).toBe('VERIFICATION_FAILED');
      } finally {
        gate.tamperAsk = undefined;
      }
    });
  });

  describe('expiry, cancel and the list', () => {
    it('expired once the link closed for good with no answer: final, and the link is gone from the record', async () => {
      const client = await h.connect((await h.addPrincipal()).token, 'legacy');
      const created = interactionOf(
        await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface(), expires_in: 60 } }),
      );
      h.clock.advance(61_000);
      // Lapsed but extendable: still waiting.
      expect(
        interactionOf(
          await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
        ).state,
      ).toBe('waiting');
      h.clock.advance(8 * 86_400_000);
      const expired = interactionOf(
        await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
      );
      expect(expired.state).toBe('expired');
      const [row] = await queryRows<{ state: string; sealed: string | null }>(
        h.database.db,
        sql`select state, sealed from mcp_handles where handle = ${created.handle}`,
      );
      expect(row).toEqual({ state: 'expired', sealed: null });
    });

    it('a lapsed link (past its deadline, still extendable): its answer is released and a follow-up is published on it', async () => {
      const client = await h.connect((await h.addPrincipal()).token, 'modern');
      const created = interactionOf(
        await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface(), expires_in: 60 } }),
      );
      await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'x' },
      });
      h.clock.advance(61_000);
      expect((await openLink(h.runtime, tokenOf(created.humanUrl!))).state).toBe('answered');
      const answered = (
        (await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }))
          .structuredContent as { interaction: Interaction & { response?: { eventId: string; verified: boolean } } }
      ).interaction;
      expect(answered.state).toBe('answered');
      expect(answered.response?.verified).toBe(true);
      // Read again while lapsed: the saved answer is confirmed by a read of the lapsed link.
      expect(
        interactionOf(
          await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
        ).state,
      ).toBe('answered');
      const published = interactionOf(
        await client.callTool({
          name: 'sess_publish',
          arguments: {
            handle: created.handle,
            expected_revision: 1,
            response_event_id: answered.response!.eventId,
            interaction: sampleSurface('Next?'),
          },
        }),
      );
      expect(published).toMatchObject({ state: 'waiting', revision: 2 });
    });

    it('sess_cancel withdraws: the page says so, the handle ends cancelled, and a repeat is the same', async () => {
      const client = await h.connect((await h.addPrincipal()).token, 'modern');
      const created = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
      const cancelled = interactionOf(await client.callTool({ name: 'sess_cancel', arguments: { handle: created.handle } }));
      expect(cancelled.state).toBe('cancelled');
      expect((await openLink(h.runtime, tokenOf(created.humanUrl!))).state).toBe('withdrawn');
      expect(interactionOf(await client.callTool({ name: 'sess_cancel', arguments: { handle: created.handle } })).state).toBe(
        'cancelled',
      );
      expect(
        interactionOf(await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } })).state,
      ).toBe('cancelled');
    });

    it('sess_list: the caller’s own interactions, newest first, a status filter and a cursor; answerReady once a person answered', async () => {
      const { token } = await h.addPrincipal();
      const client = await h.connect(token, 'modern');
      const made: Interaction[] = [];
      for (const title of ['First?', 'Second?', 'Third?']) {
        made.push(
          interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface(title) } })),
        );
        h.clock.advance(1000);
      }
      await submitLinkAnswer(h.runtime, tokenOf(made[2]!.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'x' },
      });
      const page1 = (await client.callTool({ name: 'sess_list', arguments: { limit: 2 } })).structuredContent as {
        interactions: Array<{ handle: string; title: string; state: string; answerReady?: boolean; expiresAt?: string }>;
        nextCursor?: string;
      };
      expect(page1.interactions.map((i) => i.title)).toEqual(['Third?', 'Second?']);
      expect(page1.interactions[0]).toMatchObject({ state: 'waiting', answerReady: true });
      expect(page1.interactions[0]!.expiresAt).toBeTruthy();
      expect(JSON.stringify(page1)).not.toContain('/s/');
      const page2 = (await client.callTool({ name: 'sess_list', arguments: { limit: 2, cursor: page1.nextCursor } }))
        .structuredContent as {
        interactions: Array<{ title: string }>;
        nextCursor?: string;
      };
      expect(page2.interactions.map((i) => i.title)).toEqual(['First?']);
      expect(page2.nextCursor).toBeUndefined();
      await client.callTool({ name: 'sess_cancel', arguments: { handle: made[0]!.handle } });
      const cancelled = (await client.callTool({ name: 'sess_list', arguments: { status: 'cancelled' } })).structuredContent as {
        interactions: Array<{ handle: string }>;
      };
      expect(cancelled.interactions.map((i) => i.handle)).toEqual([made[0]!.handle]);
      const bad = await client.callTool({ name: 'sess_list', arguments: { status: 'everything' } });
      expect(errorOf(bad).code).toBe('INVALID_ARGUMENTS');
    });
  });

  describe('the request deadline and clients that go away', () => {
    it('the deadline ends a parked sess_response wait as needs_resume, with the re-wait line', async () => {
      const client = await h.connect((await h.addPrincipal()).token, 'modern');
      const created = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
      gate.reads.length = 0;
      const pending = client.callTool({
        name: 'sess_response',
        arguments: { handle: created.handle, revision: 1, wait_ms: 45_000 },
      });
      // The wait has begun its read; the request's deadline passes now (long before its 45 s).
      await expect.poll(() => gate.reads.length).toBe(1);
      deadlines.fire();
      const result = await pending;
      // needs_resume, not the `waiting` a wait_ms that ran out gives: the deadline ended the wait.
      expect(interactionOf(result).state).toBe('needs_resume');
      expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^No answer yet\. Call sess_response again/);
      // Resumable: the same handle reads on, and nothing was created twice.
      expect(
        interactionOf(
          await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
        ).state,
      ).toBe('waiting');
    });

    it.each(['legacy', 'modern'] as const)(
      '%s era: a plain sess_response (run by the edge, no SDK server) ends byte for byte as one the SDK runs; the log counts the wait',
      async (era) => {
        const { token } = await h.addPrincipal();
        const client = await h.connect(token, 'modern');
        // Raw calls: plain, or with a progress token (not plain: the SDK runs the whole call).
        const respond = async (handle: string, waitMs: number, plain: boolean) => {
          const meta: Record<string, unknown> =
            era === 'modern'
              ? {
                  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' },
                  'io.modelcontextprotocol/clientCapabilities': {},
                }
              : {};
          if (!plain) meta.progressToken = 'p1';
          const params: Record<string, unknown> = { name: 'sess_response', arguments: { handle, revision: 1, wait_ms: waitMs } };
          if (Object.keys(meta).length > 0) params._meta = meta;
          const eraHeaders: Record<string, string> =
            era === 'modern'
              ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'sess_response' }
              : {};
          const response = await fetch(h.url, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: `Bearer ${token}`,
              ...eraHeaders,
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params }),
          });
          const text = await response.text();
          const data = text.startsWith('{')
            ? text
            : text
                .split('\n')
                .find((l) => l.startsWith('data: '))!
                .slice(6);
          const structured = (JSON.parse(data) as { result: { structuredContent: Record<string, unknown> } }).result
            .structuredContent;
          return { text, type: response.headers.get('content-type'), structured };
        };
        const both = async (handle: string, waitMs: number) => [
          await respond(handle, waitMs, true),
          await respond(handle, waitMs, false),
        ];
        const create = async () =>
          interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));

        // No answer within wait_ms: waiting, alike.
        const quiet = await create();
        const [plainWaiting, sdkWaiting] = await both(quiet.handle, 200);
        expect(plainWaiting).toEqual(sdkWaiting);
        expect((plainWaiting!.structured as { interaction: Interaction }).interaction.state).toBe('waiting');

        // An answer arriving while parked is released with its receipt, alike.
        for (const plain of [true, false]) {
          const created = await create();
          gate.reads.length = 0;
          const parked = respond(created.handle, 45_000, plain);
          await expect.poll(() => gate.reads.length).toBe(1);
          const ok = await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
            revision: 1,
            actionId: 'approve',
            submitted: { message: `parked ${plain}` },
          });
          expect(ok.ok).toBe(true);
          const released = await parked;
          const interaction = (released.structured as { interaction: Interaction & { response?: unknown } }).interaction;
          expect(interaction.state).toBe('answered');
          expect(interaction.response).toMatchObject({ values: { message: `parked ${plain}` }, verified: true });
          // The answer read again the other way: the same bytes (a whole result, its receipt included).
          expect(await respond(created.handle, 0, !plain)).toEqual(released);
        }

        // The tool's log line counts the wait in both: the operator sees how long the call took.
        const logged = lines
          .map((line) => JSON.parse(line) as { event?: string; tool?: string; handle?: string; ms?: number })
          .filter((line) => line.event === 'mcp.tool' && line.handle === quiet.handle);
        // (That `ms` spans the wait is run-tool.test.ts's, on fake timers; here: both calls logged it.)
        expect(logged).toHaveLength(2);
        for (const line of logged)
          expect(line).toMatchObject({ tool: 'sess_response', outcome: 'waiting', ms: expect.any(Number) });

        // A call that fails before reading fails at once, not after its wait: it never reads.
        gate.reads.length = 0;
        const [plainMissing, sdkMissing] = await both('hdl_zzzzzzzzzzzzzzzzzzzzzzzzzz', 45_000);
        expect(gate.reads).toEqual([]);
        expect(plainMissing).toEqual(sdkMissing);
        expect(plainMissing!.structured).toMatchObject({ error: { code: 'HANDLE_NOT_FOUND' } });
      },
    );

    it('a client that disconnects releases its parked wait at once', async () => {
      const { token } = await h.addPrincipal();
      const client = await h.connect(token, 'legacy');
      const created = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
      gate.reads.length = 0;
      const abort = new AbortController();
      const pending = fetch(h.url, {
        method: 'POST',
        signal: abort.signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 45_000 } },
        }),
      }).then((r) => r.text());
      await expect.poll(() => gate.reads.length).toBe(1);
      abort.abort();
      await expect(pending).rejects.toThrow();
      // The read ends: no deadline expires here (the test holds them) and the wait was 45 s, longer
      // than the test may run, so only the client leaving can have released it.
      await gate.reads[0]!.ended;
    });

    it('a client that disconnects during a create: the create still lands and the handle is waiting', async () => {
      const { token } = await h.addPrincipal();
      const client = await h.connect(token, 'modern');
      let release!: () => void;
      gate.hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      const entered = new Promise<void>((resolve) => {
        gate.entered = resolve;
      });
      const abort = new AbortController();
      // A 2025-era call: its SSE answer starts at once, so the client leaves while the body is open.
      const pending = fetch(h.url, {
        method: 'POST',
        signal: abort.signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: { name: 'sess_request', arguments: { interaction: sampleSurface('Lost reply?') } },
        }),
      }).then((response) => response.text());
      try {
        await entered;
        abort.abort();
        await expect(pending).rejects.toThrow();
      } finally {
        release();
        gate.hold = undefined;
        gate.entered = undefined;
      }
      const listed = async () =>
        (
          (await client.callTool({ name: 'sess_list', arguments: { status: 'all' } })).structuredContent as {
            interactions: Array<{ title: string; state: string }>;
          }
        ).interactions;
      await expect.poll(listed, { timeout: 3000 }).toEqual([expect.objectContaining({ title: 'Lost reply?', state: 'waiting' })]);
    });
  });

  describe('diagnostics', () => {
    it('log lines carry the tool name, handle, outcome and timing — never a link or an answer', async () => {
      const client = await h.connect((await h.addPrincipal()).token, 'modern');
      const created = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
      await submitLinkAnswer(h.runtime, tokenOf(created.humanUrl!), {
        revision: 1,
        actionId: 'approve',
        submitted: { message: 'secret answer 42' },
      });
      await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1 } });
      const all = lines.join('');
      expect(all).not.toContain(tokenOf(created.humanUrl!));
      expect(all).not.toContain('secret answer 42');
      const toolLines = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === 'mcp.tool');
      expect(toolLines.find((l) => l.handle === created.handle && l.outcome === 'answered')).toBeDefined();
      for (const line of toolLines)
        expect(Object.keys(line).sort()).toEqual(
          ['event', 'handle', 'level', 'ms', 'msg', 'outcome', 'time', 'tool'].filter((k) => k !== 'handle' || 'handle' in line),
        );
    });
  });
});
