/*
 * The answer page's test harness: this package's routes alone (the HTTP tests), or the real app
 * (buildApp from apps/server, with its request logger, stylesheet and JWKS; the browser tests) on
 * 127.0.0.1:0 over a fresh test database, a forms runtime of the test's own for the agent's verbs
 * (as another replica would be), one workspace, and a clock the test moves instead of sleeping.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createPageRoutes } from '@sess/answer-pages';
import { newId, newSecret } from '@sess/core';
import { workspaces } from '@sess/db';
import {
  completeSession,
  createAsk,
  createFormsRuntime,
  createSession,
  type FormsRuntime,
  publishSession,
  readSession,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import { createRemoteKeySet, type VerifyReceiptResult, verifyReceipt } from '@sess/receipts';
import { buildApp, loadConfig } from '@sess/server';
import { sampleSurface } from '@sess/surface/test-fixtures';
import { Hono } from 'hono';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { createTestLogger } from './test-logger.ts';

export interface PagesHarness {
  /** Where the server listens, e.g. http://127.0.0.1:43117 */
  url: string;
  /** PUBLIC_URL: the receipts' issuer and the links' origin. */
  publicUrl: string;
  database: TestDatabase;
  runtime: FormsRuntime;
  ctx: WorkspaceContext;
  /** Every log line the server wrote (JSON). */
  logs: string[];
  /** Moves the shared clock forward. */
  advance(ms: number): void;
  now(): Date;
  close(): Promise<void>;
}

const START = Date.parse('2030-01-07T09:00:00.000Z');

export interface PagesHarnessOptions {
  /**
   * `pages` (the HTTP tests): this package's routes alone, a Hono app with createPageRoutes on
   * its own forms runtime (the server's). `app` (the default; the browser tests, which need the
   * app's stylesheet and the published JWKS): apps/server's buildApp, with its request logger.
   */
  serve?: 'pages' | 'app';
}

/** Starts the pages (or the real app) on a fresh database; `waitMs` is not configurable here (the app's own). */
export async function startPagesHarness(options: PagesHarnessOptions = {}): Promise<PagesHarness> {
  const database = await createTestDatabase({ poolMax: 10 });
  let clock = START;
  const now = () => new Date(clock);
  const logs: string[] = [];
  const logger = createTestLogger({ level: 'info', destination: { write: (line: string) => void logs.push(line) } });
  const secret = newSecret(32);
  const publicUrl = 'http://sess.test';
  const closers: Array<() => Promise<void>> = [];
  let fetchHandler: (request: Request) => Response | Promise<Response>;
  if (options.serve === 'pages') {
    const served = createFormsRuntime({ database, publicUrl, secret, logger, now });
    closers.push(() => served.close());
    const pages = new Hono();
    pages.route('/', createPageRoutes({ runtime: served, secret }));
    fetchHandler = (request) => pages.fetch(request);
  } else {
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', SESS_SECRET: secret, PUBLIC_URL: publicUrl });
    const app = buildApp({ config, database, logger, secret, now });
    fetchHandler = (request) => app.fetch(request);
  }
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: fetchHandler, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const runtime = createFormsRuntime({ database, publicUrl, secret, logger, now });
  const workspaceId = newId('workspace');
  await database.db.insert(workspaces).values({ id: workspaceId, name: 'Pages test', plan: 'pro' });
  return {
    url,
    publicUrl,
    database,
    runtime,
    ctx: { runtime, workspaceId },
    logs,
    advance: (ms) => {
      clock += ms;
    },
    now,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await runtime.close();
      for (const close of closers) await close();
      await database.destroy();
    },
  };
}

/** The token of a `humanUrl` (`PUBLIC_URL/s/<token>`). */
export function tokenOf(humanUrl: string): string {
  const token = new URL(humanUrl).pathname.split('/')[2];
  if (!token) throw new Error('no token in humanUrl');
  return token;
}

/** Creates an interaction; returns its id and the page URL on the test server. */
export async function createLink(h: PagesHarness, interaction: unknown, expiresIn = 3600) {
  const created = await createSession({ ctx: h.ctx, input: { interaction, expires_in: expiresIn } });
  const token = tokenOf(created.humanUrl);
  return { sessionId: created.sessionId, token, pageUrl: `${h.url}/s/${token}` };
}

/** Creates an Ask from sess_ask arguments; returns its id and the shared page URL. */
export async function createAskLink(h: PagesHarness, args: unknown) {
  const created = await createAsk({ ctx: h.ctx, input: args });
  const token = tokenOf(created.humanUrl);
  return { askId: created.askId, token, pageUrl: `${h.url}/s/${token}` };
}

/** The answer event of a session's current revision (what the agent reads before publish/complete). */
async function answerEvent(h: PagesHarness, sessionId: string) {
  const view = await readSession({ ctx: h.ctx, sessionId });
  if (!view.response) throw new Error(`session ${sessionId} has no answer at revision ${view.revision}`);
  return {
    revision: view.revision,
    eventId: view.response.eventId,
    values: view.response.values,
    actionId: view.response.actionId,
  };
}

/** The agent shows the next step on the same link (through the runtime's verb). */
export async function publishNext(h: PagesHarness, sessionId: string, interaction: unknown) {
  const answer = await answerEvent(h, sessionId);
  return publishSession({
    ctx: h.ctx,
    sessionId,
    expectedRevision: answer.revision,
    idempotencyKey: newSecret(12),
    input: { response_event_id: answer.eventId, interaction },
  });
}

/** The agent completes the session (through the runtime's verb). */
export async function completeLink(h: PagesHarness, sessionId: string) {
  const answer = await answerEvent(h, sessionId);
  return completeSession({
    ctx: h.ctx,
    sessionId,
    expectedRevision: answer.revision,
    idempotencyKey: newSecret(12),
    input: { response_event_id: answer.eventId },
  });
}

export { answerEvent, withdrawSession };

/** The seed's sample interaction (docs/contract/sess-mcp-readme.md, "First interaction"), with a description. */
export function commitInteraction() {
  return { ...sampleSurface(), description: 'The tests pass. Edit the message if you like.' };
}

/** A follow-up step the agent publishes after the first answer. */
export function pushInteraction() {
  return {
    mode: 'interactive',
    title: 'Push to main now?',
    source: {
      kind: 'sess_surface',
      components: [
        { type: 'text', text: 'The commit is ready.\nPushing starts the deploy.' },
        {
          type: 'field',
          name: 'when',
          label: 'When to push',
          schema: { type: 'string', enum: ['now', 'tonight'], option_labels: ['Now', 'Tonight'] },
          value: 'now',
        },
      ],
    },
    actions: [
      { id: 'push', label: 'Push', intent: 'approve' },
      { id: 'hold', label: 'Hold', intent: 'reject' },
    ],
  };
}

/** The answer an agent holds (from readSession or readAsk), that a receipt must pin exactly. */
export interface HeldAnswer {
  eventId: string;
  revision: number;
  surfaceSha256: string;
  answerSha256: string;
  respondentId?: string | undefined;
}

/**
 * Verifies a receipt as someone outside Sess would: against the server's published JWKS (over
 * HTTP), the issuer pinned to PUBLIC_URL, every claim pinned to the answer the agent read.
 */
export function verifyAgainstJwks(
  h: PagesHarness,
  jws: string,
  sessionId: string,
  held: HeldAnswer,
): Promise<VerifyReceiptResult> {
  return verifyReceipt(jws, {
    keys: createRemoteKeySet(`${h.url}/.well-known/jwks.json`),
    issuer: h.publicUrl,
    expected: {
      workspaceId: h.ctx.workspaceId,
      sessionId,
      revision: held.revision,
      eventId: held.eventId,
      surfaceSha256: held.surfaceSha256,
      answerSha256: held.answerSha256,
      respondentId: held.respondentId ?? null,
    },
  });
}

/** "What time works for a call tomorrow?": a choice and a text field (the README's screenshots). */
export function callInteraction() {
  return {
    mode: 'interactive',
    title: 'What time works for a call tomorrow?',
    description: 'I will send the invite as soon as you answer.',
    source: {
      kind: 'sess_surface',
      components: [
        {
          type: 'field',
          name: 'time',
          label: 'Time',
          schema: { type: 'string', enum: ['0930', '1300', '1630'], option_labels: ['9:30', '13:00', '16:30'] },
        },
        { type: 'field', name: 'note', label: 'Anything I should know?', required: false, schema: { type: 'string' } },
      ],
    },
    actions: [
      { id: 'send', label: 'Send', intent: 'submit' },
      { id: 'none', label: 'None of these', intent: 'reject' },
    ],
  };
}
