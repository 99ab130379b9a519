import type { CreatedWebhook, RotatedWebhook, WebhookDeliveryList, WebhookList } from '@sess/contract';
import { type FormsRuntime, runIdempotent } from '@sess/forms';
import type { Context, Hono } from 'hono';
import { type V1RouteOptions, v1Route } from './v1-route.ts';
import type { V1Env } from './v1-routes.ts';

/** The transaction an idempotent write runs in (forms' `runIdempotent` opens it and records the key in it). */
type WriteTx = Parameters<Parameters<typeof runIdempotent>[3]>[0];

/**
 * The webhook verbs /v1 serves, each scoped to the API key's workspace. apps/server wires
 * @sess/webhooks' `createWebhooksApi` here, so this package never reads the webhook tables.
 */
export interface V1WebhooksPort {
  create(workspaceId: string, body: unknown, tx?: WriteTx): Promise<CreatedWebhook>;
  list(workspaceId: string): Promise<WebhookList>;
  remove(workspaceId: string, id: string): Promise<{ id: string; deleted: true }>;
  rotate(workspaceId: string, id: string, tx?: WriteTx): Promise<RotatedWebhook>;
  sendTest(workspaceId: string, id: string, tx?: WriteTx): Promise<{ deliveryId: string; eventId: string }>;
  deliveries(workspaceId: string, id: string): Promise<WebhookDeliveryList>;
}

/**
 * Mounts `/v1/webhooks…` on the authenticated /v1 app. The POSTs are idempotent like every /v1
 * write: the verb runs in the transaction that records its Idempotency-Key, and a repeat gets
 * the stored answer (sealed: it carries the secret) instead of a second endpoint or rotation.
 */
export function mountWebhookRoutes(
  app: Hono<V1Env>,
  runtime: FormsRuntime,
  webhooks: V1WebhooksPort,
  options: V1RouteOptions,
): void {
  const workspace = (c: Context<V1Env>) => c.get('principal').workspaceId;
  const idempotent = async <T>(
    c: Context<V1Env>,
    key: string,
    operation: string,
    request: unknown,
    write: (tx: WriteTx) => Promise<T>,
  ): Promise<T> =>
    (
      await runIdempotent(runtime, workspace(c), { key, operation, request, sealed: true }, async (tx) => ({
        value: await write(tx),
      }))
    ).value;
  v1Route(app, 'createWebhook', options, async (c, { body, idempotencyKey }) => {
    const created = await idempotent(c, idempotencyKey, 'createWebhook', body, (tx) => webhooks.create(workspace(c), body, tx));
    c.header('Location', `/v1/webhooks/${created.id}`);
    return c.json(created, 201);
  });
  v1Route(app, 'listWebhooks', options, async (c) => c.json(await webhooks.list(workspace(c))));
  v1Route(app, 'deleteWebhook', options, async (c, { id }) => c.json(await webhooks.remove(workspace(c), id)));
  v1Route(app, 'rotateWebhookSecret', options, async (c, { id, idempotencyKey }) =>
    c.json(await idempotent(c, idempotencyKey, `rotateWebhookSecret ${id}`, null, (tx) => webhooks.rotate(workspace(c), id, tx))),
  );
  v1Route(app, 'testWebhook', options, async (c, { id, idempotencyKey }) =>
    c.json(await idempotent(c, idempotencyKey, `testWebhook ${id}`, null, (tx) => webhooks.sendTest(workspace(c), id, tx)), 202),
  );
  v1Route(app, 'listWebhookDeliveries', options, async (c, { id }) => c.json(await webhooks.deliveries(workspace(c), id)));
}
