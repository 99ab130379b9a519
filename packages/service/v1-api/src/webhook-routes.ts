import type { CreatedWebhook, RotatedWebhook, WebhookDeliveryList, WebhookList } from '@sess/contract';
import type { Hono } from 'hono';
import { type V1RouteOptions, v1Route } from './v1-route.ts';
import type { V1Env } from './v1-routes.ts';

/**
 * The webhook verbs /v1 serves, each scoped to the API key's workspace. apps/server wires
 * @sess/webhooks' `createWebhooksApi` here, so this package never reads the webhook tables.
 */
export interface V1WebhooksPort {
  create(workspaceId: string, body: unknown): Promise<CreatedWebhook>;
  list(workspaceId: string): Promise<WebhookList>;
  remove(workspaceId: string, id: string): Promise<{ id: string; deleted: true }>;
  rotate(workspaceId: string, id: string): Promise<RotatedWebhook>;
  sendTest(workspaceId: string, id: string): Promise<{ deliveryId: string; eventId: string }>;
  deliveries(workspaceId: string, id: string): Promise<WebhookDeliveryList>;
}

/** Mounts `/v1/webhooks…` on the authenticated /v1 app. */
export function mountWebhookRoutes(app: Hono<V1Env>, webhooks: V1WebhooksPort, options: V1RouteOptions): void {
  const workspace = (c: { get(key: 'principal'): { workspaceId: string } }) => c.get('principal').workspaceId;
  v1Route(app, 'createWebhook', options, async (c, { body }) => {
    const created = await webhooks.create(workspace(c), body);
    c.header('Location', `/v1/webhooks/${created.id}`);
    return c.json(created, 201);
  });
  v1Route(app, 'listWebhooks', options, async (c) => c.json(await webhooks.list(workspace(c))));
  v1Route(app, 'deleteWebhook', options, async (c, { id }) => c.json(await webhooks.remove(workspace(c), id)));
  v1Route(app, 'rotateWebhookSecret', options, async (c, { id }) => c.json(await webhooks.rotate(workspace(c), id)));
  v1Route(app, 'testWebhook', options, async (c, { id }) => c.json(await webhooks.sendTest(workspace(c), id), 202));
  v1Route(app, 'listWebhookDeliveries', options, async (c, { id }) => c.json(await webhooks.deliveries(workspace(c), id)));
}
