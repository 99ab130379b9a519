import { buildV1OpenApiDocument } from '@sess/contract';
import { bearerChallenge, type Logger, readBearerToken, SessError } from '@sess/core';
import { exportEvents, parseEventCursor, readTimeline, TIMELINE_PAGE_MAX } from '@sess/events';
import {
  completeSession,
  createAsk,
  createSession,
  type FormsRuntime,
  listSessions,
  publishSession,
  readAsk,
  readSession,
  type WorkspaceContext,
  withdrawSession,
} from '@sess/forms';
import { type Context, Hono } from 'hono';
import { V1_BODY_LIMIT_BYTES } from './read-body.ts';
import { revisionEtag, v1Route } from './v1-route.ts';
import { mountWebhookRoutes, type V1WebhooksPort } from './webhook-routes.ts';

/** The range of `GET /v1/events` from its query: `since` or `after`, and `until` (default: all sealed so far). */
function exportRange(query: { since?: string | undefined; until?: string | undefined; after?: number | undefined }) {
  const instant = (name: 'since' | 'until', value: string) => {
    const parsed = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(parsed.getTime())) {
      throw new SessError('INVALID_ARGUMENTS', `${name} must be an ISO 8601 instant such as 2026-12-01T00:00:00Z.`, {
        field: `/${name}`,
      });
    }
    return parsed;
  };
  if (query.since === undefined && query.after === undefined) {
    throw new SessError('INVALID_ARGUMENTS', 'Say where the export starts: since=<ISO 8601 instant> (or after=<seq>).', {
      field: '/since',
    });
  }
  return {
    ...(query.after !== undefined ? { afterSeq: query.after } : { since: instant('since', query.since as string) }),
    ...(query.until === undefined ? {} : { until: instant('until', query.until) }),
  };
}

/** Who a /v1 request acts for, from its API key. */
export interface V1Principal {
  workspaceId: string;
  /** The workspace's plan, when the key lookup already has it. */
  plan?: string | undefined;
  apiKeyId?: string | undefined;
}

export interface V1RoutesDeps {
  runtime: FormsRuntime;
  /**
   * Resolves a bearer key to its workspace, or null for anything that is not a live key.
   * apps/server wires @sess/accounts' `authenticateApiKey` here, so forms never reads api_keys.
   */
  authenticate: (key: string) => Promise<V1Principal | null>;
  bodyLimitBytes?: number;
  /** The webhook verbs (`/v1/webhooks…`); without them those routes are 404. */
  webhooks?: V1WebhooksPort;
}

export interface V1Env {
  Variables: { principal: V1Principal; logger?: Logger };
}

/** The response header naming the workspace a request acted in (the seed's `Sess-Workspace-Id`). */
export const WORKSPACE_HEADER = 'Sess-Workspace-Id';

/**
 * The /v1 API: thin adapters over the verbs. Every route but the OpenAPI document needs
 * `Authorization: Bearer <API key>`; every write needs `Idempotency-Key`; publish and complete
 * need `If-Match: "<revision>"`. Every authenticated response carries `Sess-Workspace-Id` and
 * `Cache-Control: no-store`. Errors are thrown as SessError and shaped by the app's onError:
 * `{ error: { code, message, retryable, field? } }`.
 */
export function createV1Routes(deps: V1RoutesDeps): Hono<V1Env> {
  const { runtime } = deps;
  const app = new Hono<V1Env>();
  // Generated from @sess/contract's schemas once, when the routes are built.
  const openapi = JSON.stringify(buildV1OpenApiDocument(runtime.publicUrl));

  app.get('/v1/openapi.json', (c) =>
    c.body(openapi, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' }),
  );

  app.use('/v1/*', async function authenticateV1(c, next) {
    if (c.req.path === '/v1/openapi.json') return next();
    c.header('Cache-Control', 'no-store');
    const bearer = readBearerToken(c.req.header('authorization'));
    const principal = bearer.kind === 'token' ? await deps.authenticate(bearer.token) : null;
    if (!principal) {
      c.header('WWW-Authenticate', bearerChallenge({ realm: 'sess' }));
      throw new SessError('UNAUTHORIZED', 'Send a valid API key: Authorization: Bearer <key>.');
    }
    c.set('principal', principal);
    c.header(WORKSPACE_HEADER, principal.workspaceId);
    c.get('logger')?.debug({ event: 'v1.authenticated', workspaceId: principal.workspaceId, apiKeyId: principal.apiKeyId });
    await next();
  });

  const ctxOf = (c: Context<V1Env>): WorkspaceContext => {
    const principal = c.get('principal');
    // Every /v1 caller holds a workspace API key: its forms meet the workspace's API-key floor.
    return { runtime, workspaceId: principal.workspaceId, plan: principal.plan, madeBy: { kind: 'api_key' } };
  };
  const options = { bodyLimitBytes: deps.bodyLimitBytes ?? V1_BODY_LIMIT_BYTES };

  v1Route(app, 'createSession', options, async (c, { idempotencyKey, body }) => {
    // Every /v1 caller holds a workspace API key: its owners who chose so are told of the form.
    const created = await createSession({ ctx: ctxOf(c), input: body, idempotencyKey, notifyOwners: true });
    c.header('Location', `/v1/sessions/${created.sessionId}`);
    c.header('ETag', revisionEtag(created.revision));
    return c.json(created, 201);
  });

  v1Route(app, 'createAsk', options, async (c, { idempotencyKey, body }) => {
    const created = await createAsk({ ctx: ctxOf(c), input: body, idempotencyKey });
    c.header('Location', `/v1/asks/${created.askId}`);
    return c.json(created, 201);
  });

  v1Route(app, 'listSessions', options, async (c, { query }) => {
    const list = await listSessions({
      ctx: ctxOf(c),
      status: query.status,
      kind: query.kind as 'interaction' | 'ask' | undefined,
      limit: query.limit,
      cursor: query.cursor,
    });
    return c.json(list);
  });

  v1Route(app, 'readSession', options, async (c, { id, query }) => {
    const view = await readSession({
      ctx: ctxOf(c),
      sessionId: id,
      revision: query.revision,
      waitMs: query.wait_ms,
      signal: c.req.raw.signal,
    });
    c.header('ETag', revisionEtag(view.revision));
    return c.json(view);
  });

  v1Route(app, 'publishSession', options, async (c, { id, expectedRevision, idempotencyKey, body }) => {
    const view = await publishSession({ ctx: ctxOf(c), sessionId: id, expectedRevision, idempotencyKey, input: body });
    c.header('ETag', revisionEtag(view.revision));
    return c.json(view);
  });

  v1Route(app, 'completeSession', options, async (c, { id, expectedRevision, idempotencyKey, body }) => {
    const view = await completeSession({ ctx: ctxOf(c), sessionId: id, expectedRevision, idempotencyKey, input: body });
    c.header('ETag', revisionEtag(view.revision));
    return c.json(view);
  });

  v1Route(app, 'withdrawSession', options, async (c, { id, idempotencyKey, body }) =>
    c.json(await withdrawSession({ ctx: ctxOf(c), sessionId: id, idempotencyKey, input: body })),
  );

  v1Route(app, 'readAsk', options, async (c, { id }) => c.json(await readAsk({ ctx: ctxOf(c), askId: id })));

  v1Route(app, 'listSessionEvents', options, async (c, { id, query }) => {
    const after = parseEventCursor(query.cursor);
    if (after === undefined) {
      throw new SessError('INVALID_ARGUMENTS', 'cursor is not one this route gave: pass the nextCursor of the previous page.', {
        field: '/cursor',
      });
    }
    const limit = query.limit;
    if (limit !== undefined && (limit < 1 || limit > TIMELINE_PAGE_MAX)) {
      throw new SessError('INVALID_ARGUMENTS', `limit must be 1–${TIMELINE_PAGE_MAX}.`, { field: '/limit' });
    }
    const page = await readTimeline(
      runtime.database.db,
      { workspaceId: c.get('principal').workspaceId, sessionId: id },
      { after, ...(limit !== undefined ? { limit } : {}) },
    );
    if (!page) throw new SessError('NOT_FOUND', `No session ${id} in this workspace.`);
    return c.json(page);
  });

  v1Route(app, 'exportEvents', options, async (c, { query }) => {
    const range = exportRange(query);
    const chunks = exportEvents(runtime.database.db, { workspaceId: c.get('principal').workspaceId, ...range });
    // Streamed chunk by chunk: an export of a year is not held in memory.
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(next.value.map((event) => `${JSON.stringify(event)}\n`).join('')));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return c.body(body, 200, { 'Content-Type': 'application/x-ndjson' });
  });
  if (deps.webhooks) mountWebhookRoutes(app, runtime, deps.webhooks, options);

  return app;
}
