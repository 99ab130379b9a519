import type { IncomingMessage } from 'node:http';
import { parseIfMatchRevision, type V1OperationId, type V1RouteOf, v1RouteOf } from '@sess/contract';
import { SessError } from '@sess/core';
import type { Context, Hono } from 'hono';
import { readJsonBody } from './read-body.ts';
import type { V1Env } from './v1-routes.ts';

/*
 * One /v1 route, served from its row of @sess/contract's V1_ROUTES: the method and path, the
 * query parameters it takes (the keys of its query schema, each read as the schema's type says:
 * a whole number, a comma-separated list, or text), Idempotency-Key and If-Match when the row
 * needs them, and the JSON body when it has one. The handler gets them typed, in the order they
 * were always checked: query, If-Match, Idempotency-Key, body.
 *
 * What is checked here is the wire: a parameter the route does not take, a number that is not
 * one, a header that is missing or not a revision. Ranges, enum values, the Idempotency-Key's
 * shape and the body are checked by the @sess/forms verb, with the same contract schemas, because
 * the hosted tools call the same verbs and their refusals (pointer, limit, length) are the API's.
 */

type Output<S> = S extends { _zod: { output: infer O } } ? O : never;
type Wire<T> = T extends number ? number : T extends readonly unknown[] ? string[] : string;
type QueryOf<R> = R extends { query: infer Q }
  ? { [K in keyof Output<Q>]?: Wire<NonNullable<Output<Q>[K]>> | undefined }
  : Record<string, never>;

/** What a route's handler gets, each part only when its row has it. */
export type V1Input<R> = { id: string; query: QueryOf<R> } & (R extends { idempotencyKey: true }
  ? { idempotencyKey: string }
  : unknown) &
  (R extends { ifMatch: true } ? { expectedRevision: number } : unknown) &
  (R extends { body: object } ? { body: unknown } : unknown);

export interface V1RouteOptions {
  /** The largest body read. */
  bodyLimitBytes: number;
}

/** How one query parameter is read off the wire, from its schema's type. */
type WireKind = 'integer' | 'list' | 'text';

interface SchemaDef {
  def: { type: string; innerType?: SchemaDef };
}

function wireKind(field: SchemaDef): WireKind {
  const inner = field.def.type === 'optional' && field.def.innerType ? field.def.innerType : field;
  if (inner.def.type === 'number') return 'integer';
  return inner.def.type === 'array' ? 'list' : 'text';
}

/** The route's query: unknown parameters refused, each known one read as its kind. */
function readQuery(url: string, shape: Record<string, SchemaDef>): Record<string, unknown> {
  const params = new URL(url).searchParams;
  const allowed = Object.keys(shape);
  for (const name of params.keys()) {
    if (!allowed.includes(name)) {
      throw new SessError('INVALID_ARGUMENTS', `Unknown query parameter ${name}. Allowed: ${allowed.join(', ') || 'none'}.`, {
        field: `/${name}`,
      });
    }
  }
  const query: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const value = params.get(name);
    if (value === null) continue;
    switch (wireKind(field)) {
      case 'integer':
        if (!/^\d{1,9}$/.test(value)) {
          throw new SessError('INVALID_ARGUMENTS', `${name} must be a whole number.`, { field: `/${name}` });
        }
        query[name] = Number(value);
        break;
      case 'list':
        // `?status=waiting,answered`; an empty one is no filter.
        if (value !== '') query[name] = value.split(',').map((item) => item.trim());
        break;
      case 'text':
        query[name] = value;
    }
  }
  return query;
}

/** `Idempotency-Key`, required on every /v1 write. @throws SessError `PRECONDITION_REQUIRED`. */
function requireIdempotencyKey(headers: Headers): string {
  const key = headers.get('idempotency-key');
  if (key === null || key === '') {
    throw new SessError(
      'PRECONDITION_REQUIRED',
      'Every write needs an Idempotency-Key header (a fresh UUID per request; repeat it to retry safely).',
      { header: 'Idempotency-Key' },
    );
  }
  return key;
}

/** `If-Match` on revision writes. @throws SessError `PRECONDITION_REQUIRED` (missing), `INVALID_ARGUMENTS` (not a revision). */
function requireIfMatchRevision(headers: Headers): number {
  const value = headers.get('if-match');
  if (value === null || value === '') {
    throw new SessError('PRECONDITION_REQUIRED', 'Publish and complete need If-Match: "<revision>" (the ETag of your read).', {
      header: 'If-Match',
    });
  }
  const revision = parseIfMatchRevision(value);
  if (revision === undefined) {
    throw new SessError('INVALID_ARGUMENTS', 'If-Match must be a revision such as "3".', { header: 'If-Match' });
  }
  return revision;
}

/** The ETag of a session read: its current revision. */
export function revisionEtag(revision: number): string {
  return `"${revision}"`;
}

/** Mounts the operation's route on `app`: its method and path from V1_ROUTES, its input parsed for `handler`. */
export function v1Route<Op extends V1OperationId>(
  app: Hono<V1Env>,
  operationId: Op,
  options: V1RouteOptions,
  handler: (c: Context<V1Env>, input: V1Input<V1RouteOf<Op>>) => Promise<Response>,
): void {
  const route = v1RouteOf(operationId);
  const path = route.path.replace('{id}', ':id');
  const shape = ('query' in route ? route.query.shape : {}) as unknown as Record<string, SchemaDef>;
  app.on(route.method.toUpperCase(), path, async (c) => {
    const input: Record<string, unknown> = { id: c.req.param('id') ?? '', query: readQuery(c.req.url, shape) };
    if (route.ifMatch) input.expectedRevision = requireIfMatchRevision(c.req.raw.headers);
    if (route.idempotencyKey) input.idempotencyKey = requireIdempotencyKey(c.req.raw.headers);
    if ('body' in route) {
      // On @hono/node-server the Node request is in `c.env.incoming`; read the body straight from it.
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      input.body = await readJsonBody({ request: c.req.raw, incoming }, options.bodyLimitBytes);
    }
    return handler(c, input as V1Input<V1RouteOf<Op>>);
  });
}
