import {
  type CreatedWebhook,
  CreatedWebhookSchema,
  type CreateWebhookRequest,
  DeletedWebhookSchema,
  type RotatedWebhook,
  RotatedWebhookSchema,
  type WebhookDeliveryList,
  WebhookDeliveryListSchema,
  type WebhookList,
  WebhookListSchema,
  WebhookTestSentSchema,
} from '@sess/contract';
import {
  type CallOptions,
  type ClientConfig,
  type SessResult,
  type SessWriteResult,
  sendDelete,
  sendRead,
  sendWrite,
  type WriteOptions,
} from '../http/send-request.ts';
import { pathId } from '../sessions/path-id.ts';

/*
 * The /v1 webhook routes: register an endpoint (its secret is shown once), list, remove, rotate
 * the secret (the old one signs too for 24 hours), send a test event, read the delivery log.
 */

const endpointPath = (operation: string, id: string) => `/v1/webhooks/${pathId(operation, 'webhookId', id)}`;

export function createWebhook(
  config: ClientConfig,
  input: CreateWebhookRequest,
  options?: WriteOptions,
): Promise<SessWriteResult<CreatedWebhook>> {
  return sendWrite(
    config,
    { operation: 'createWebhook', path: '/v1/webhooks', body: input, schema: CreatedWebhookSchema },
    options,
  );
}

export function listWebhooks(config: ClientConfig, options?: CallOptions): Promise<SessResult<WebhookList>> {
  return sendRead(config, { operation: 'listWebhooks', path: '/v1/webhooks', schema: WebhookListSchema }, options);
}

export function deleteWebhook(
  config: ClientConfig,
  id: string,
  options?: WriteOptions,
): Promise<SessWriteResult<{ id: string; deleted: true }>> {
  const operation = 'deleteWebhook';
  return sendDelete(config, { operation, path: endpointPath(operation, id), schema: DeletedWebhookSchema }, options);
}

export function rotateWebhookSecret(
  config: ClientConfig,
  id: string,
  options?: WriteOptions,
): Promise<SessWriteResult<RotatedWebhook>> {
  const operation = 'rotateWebhookSecret';
  return sendWrite(config, { operation, path: `${endpointPath(operation, id)}/rotate`, schema: RotatedWebhookSchema }, options);
}

export function testWebhook(
  config: ClientConfig,
  id: string,
  options?: WriteOptions,
): Promise<SessWriteResult<{ deliveryId: string; eventId: string }>> {
  const operation = 'testWebhook';
  return sendWrite(config, { operation, path: `${endpointPath(operation, id)}/test`, schema: WebhookTestSentSchema }, options);
}

export function listWebhookDeliveries(
  config: ClientConfig,
  id: string,
  options?: CallOptions,
): Promise<SessResult<WebhookDeliveryList>> {
  const operation = 'listWebhookDeliveries';
  return sendRead(
    config,
    { operation, path: `${endpointPath(operation, id)}/deliveries`, schema: WebhookDeliveryListSchema },
    options,
  );
}
