import type { IncomingMessage } from 'node:http';
import { buildV1OpenApiDocument } from '@sess/contract';
import { bearerChallenge, type Logger, readBearerToken, SessError } from '@sess/core';
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
import { checkQuery, integerParam, requireIdempotencyKey, requireIfMatchRevision, revisionEtag } from './preconditions.ts';
import { type BodySource, readJsonBody, V1_BODY_LIMIT_BYTES } from './read-body.ts';

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
  const limit = deps.bodyLimitBytes ?? V1_BODY_LIMIT_BYTES;
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

  // On @hono/node-server the Node request is in `c.env.incoming`; read the body straight from it.
  const bodyOf = (c: Context<V1Env>): BodySource => ({
    request: c.req.raw,
    incoming: (c.env as { incoming?: IncomingMessage } | undefined)?.incoming,
  });

  const ctxOf = (c: Context<V1Env>): WorkspaceContext => {
    const principal = c.get('principal');
    return { runtime, workspaceId: principal.workspaceId, plan: principal.plan };
  };

  app.post('/v1/sessions', async (c) => {
    checkQuery(c.req.url, []);
    const idempotencyKey = requireIdempotencyKey(c.req.raw.headers);
    const input = await readJsonBody(bodyOf(c), limit);
    // Every /v1 caller holds a workspace API key: its owners who chose so are told of the form.
    const created = await createSession({ ctx: ctxOf(c), input, idempotencyKey, notifyOwners: true });
    c.header('Location', `/v1/sessions/${created.sessionId}`);
    c.header('ETag', revisionEtag(created.revision));
    return c.json(created, 201);
  });

  app.post('/v1/asks', async (c) => {
    checkQuery(c.req.url, []);
    const idempotencyKey = requireIdempotencyKey(c.req.raw.headers);
    const input = await readJsonBody(bodyOf(c), limit);
    const created = await createAsk({ ctx: ctxOf(c), input, idempotencyKey });
    c.header('Location', `/v1/asks/${created.askId}`);
    return c.json(created, 201);
  });

  app.get('/v1/sessions', async (c) => {
    const params = checkQuery(c.req.url, ['status', 'kind', 'limit', 'cursor']);
    const status = params.get('status');
    const kind = params.get('kind');
    const list = await listSessions({
      ctx: ctxOf(c),
      status: status ? status.split(',').map((s) => s.trim()) : undefined,
      kind: (kind ?? undefined) as 'interaction' | 'ask' | undefined,
      limit: integerParam(params, 'limit'),
      cursor: params.get('cursor') ?? undefined,
    });
    return c.json(list);
  });

  app.get('/v1/sessions/:id', async (c) => {
    const params = checkQuery(c.req.url, ['revision', 'wait_ms']);
    const view = await readSession({
      ctx: ctxOf(c),
      sessionId: c.req.param('id'),
      revision: integerParam(params, 'revision'),
      waitMs: integerParam(params, 'wait_ms'),
      signal: c.req.raw.signal,
    });
    c.header('ETag', revisionEtag(view.revision));
    return c.json(view);
  });

  app.post('/v1/sessions/:id/publish', async (c) => {
    checkQuery(c.req.url, []);
    const expectedRevision = requireIfMatchRevision(c.req.raw.headers);
    const idempotencyKey = requireIdempotencyKey(c.req.raw.headers);
    const input = await readJsonBody(bodyOf(c), limit);
    const view = await publishSession({ ctx: ctxOf(c), sessionId: c.req.param('id'), expectedRevision, idempotencyKey, input });
    c.header('ETag', revisionEtag(view.revision));
    return c.json(view);
  });

  app.post('/v1/sessions/:id/complete', async (c) => {
    checkQuery(c.req.url, []);
    const expectedRevision = requireIfMatchRevision(c.req.raw.headers);
    const idempotencyKey = requireIdempotencyKey(c.req.raw.headers);
    const input = await readJsonBody(bodyOf(c), limit);
    const view = await completeSession({ ctx: ctxOf(c), sessionId: c.req.param('id'), expectedRevision, idempotencyKey, input });
    c.header('ETag', revisionEtag(view.revision));
    return c.json(view);
  });

  app.post('/v1/sessions/:id/withdraw', async (c) => {
    checkQuery(c.req.url, []);
    const idempotencyKey = requireIdempotencyKey(c.req.raw.headers);
    const input = await readJsonBody(bodyOf(c), limit);
    return c.json(await withdrawSession({ ctx: ctxOf(c), sessionId: c.req.param('id'), idempotencyKey, input }));
  });

  app.get('/v1/asks/:id', async (c) => {
    checkQuery(c.req.url, []);
    return c.json(await readAsk({ ctx: ctxOf(c), askId: c.req.param('id') }));
  });

  return app;
}
