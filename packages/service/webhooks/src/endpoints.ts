import {
  type CreatedWebhook,
  CreateWebhookRequestSchema,
  type RotatedWebhook,
  type WebhookDeliveryList,
  type WebhookEndpointView,
  type WebhookEventType,
  type WebhookList,
} from '@sess/contract';
import { newId, SessError, toPointer } from '@sess/core';
import type { EgressPolicy } from '@sess/core/egress';
import { type Db, type DbOrTx, notify, queryRows, type WebhookAttemptRecord } from '@sess/db';
import { sql } from 'drizzle-orm';
import { checkEndpointUrl } from './endpoint-url.ts';
import { arrayOf, toDate } from './rows.ts';
import { createWebhookSealer, mintSecret, ROTATION_OVERLAP_MS } from './secrets.ts';
import { WEBHOOKS_DUE_CHANNEL } from './worker.ts';

/*
 * The registration verbs, one set for /v1 (an API key's workspace) and /account/webhooks (an
 * owner's): add, list, remove, rotate the secret, send a test event, read the delivery log.
 * Every verb is scoped to its workspace: another workspace's endpoint is NOT_FOUND.
 */

/** Endpoints a workspace may have. */
export const MAX_ENDPOINTS = 20;
/** Deliveries the log shows, newest first. */
const LOG_LENGTH = 50;

export interface WebhooksApiOptions {
  db: Db;
  /** The server secret (seals the endpoint secrets). */
  secret: string;
  /** The egress policy deliveries go out under: registration refuses what it would refuse. */
  policy: EgressPolicy;
  now?: () => Date;
}

/** The writes take the transaction of an idempotent /v1 request (its key is recorded in it); else they run on their own. */
export interface WebhooksApi {
  create(workspaceId: string, body: unknown, tx?: DbOrTx): Promise<CreatedWebhook>;
  list(workspaceId: string): Promise<WebhookList>;
  remove(workspaceId: string, id: string, tx?: DbOrTx): Promise<{ id: string; deleted: true }>;
  rotate(workspaceId: string, id: string, tx?: DbOrTx): Promise<RotatedWebhook>;
  sendTest(workspaceId: string, id: string, tx?: DbOrTx): Promise<{ deliveryId: string; eventId: string }>;
  deliveries(workspaceId: string, id: string): Promise<WebhookDeliveryList>;
}

interface EndpointRow extends Record<string, unknown> {
  id: string;
  url: string;
  event_types: string[] | string;
  created_at: string | Date;
  disabled_at: string | Date | null;
  disabled_reason: string | null;
  previous_secret_until: string | Date | null;
}

const iso = (value: string | Date | null) => (value === null ? null : toDate(value).toISOString());

function viewOf(row: EndpointRow, at: Date): WebhookEndpointView {
  const until = row.previous_secret_until === null ? null : toDate(row.previous_secret_until);
  return {
    id: row.id,
    url: row.url,
    eventTypes: arrayOf(row.event_types) as WebhookEndpointView['eventTypes'],
    createdAt: toDate(row.created_at).toISOString(),
    disabledAt: iso(row.disabled_at),
    disabledReason: row.disabled_reason === 'gone' ? 'gone' : null,
    previousSecretUntil: until && until.getTime() > at.getTime() ? until.toISOString() : null,
  };
}

const notFound = () => new SessError('NOT_FOUND', 'No such webhook endpoint in this workspace.', { field: '/id' });

export function createWebhooksApi(options: WebhooksApiOptions): WebhooksApi {
  const { db, policy } = options;
  const now = options.now ?? (() => new Date());
  const sealer = createWebhookSealer(options.secret);
  const columns = sql`id, url, event_types, created_at, disabled_at, disabled_reason, previous_secret_until`;

  async function findEndpoint(workspaceId: string, id: string, on: DbOrTx = db): Promise<EndpointRow> {
    const [row] = await queryRows<EndpointRow>(
      on,
      sql`select ${columns} from webhook_endpoints where id = ${id} and workspace_id = ${workspaceId}`,
    );
    if (!row) throw notFound();
    return row;
  }

  return {
    async create(workspaceId, body, tx = db) {
      const parsed = CreateWebhookRequestSchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new SessError('INVALID_ARGUMENTS', `${toPointer(issue.path) || 'The body'}: ${issue.message}`, {
          field: toPointer(issue.path),
        });
      }
      const url = checkEndpointUrl(parsed.data.url, policy);
      const eventTypes = [...new Set(parsed.data.eventTypes ?? [])];
      const id = newId('webhookEndpoint');
      const { secret, sealed } = mintSecret(sealer, id);
      const at = now();
      const rows = await queryRows<EndpointRow>(
        tx,
        // A new endpoint starts at its workspace's chain head: it gets what happens from now on.
        sql`insert into webhook_endpoints (id, workspace_id, url, event_types, sealed_secret, cursor, created_at)
            select ${id}, ${workspaceId}, ${url}, ${sql`array[${sql.join(
              eventTypes.map((type) => sql`${type}`),
              sql`, `,
            )}]::text[]`}, ${sealed},
                   coalesce((select seq from event_chains where workspace_id = ${workspaceId}), 0), ${at.toISOString()}::timestamptz
             where (select count(*) from webhook_endpoints where workspace_id = ${workspaceId}) < ${MAX_ENDPOINTS}
            returning ${columns}`,
      );
      if (!rows[0])
        throw new SessError('PLAN_LIMIT_REACHED', `A workspace can have ${MAX_ENDPOINTS} webhook endpoints; remove one first.`, {
          limit: MAX_ENDPOINTS,
        });
      return { ...viewOf(rows[0], at), secret };
    },

    async list(workspaceId) {
      const at = now();
      const rows = await queryRows<EndpointRow>(
        db,
        sql`select ${columns} from webhook_endpoints where workspace_id = ${workspaceId} order by created_at, id`,
      );
      return { webhooks: rows.map((row) => viewOf(row, at)) };
    },

    async remove(workspaceId, id) {
      const rows = await queryRows(
        db,
        sql`delete from webhook_endpoints where id = ${id} and workspace_id = ${workspaceId} returning id`,
      );
      if (rows.length === 0) throw notFound();
      return { id, deleted: true };
    },

    async rotate(workspaceId, id, tx = db) {
      const at = now();
      const until = new Date(at.getTime() + ROTATION_OVERLAP_MS);
      const { secret, sealed } = mintSecret(sealer, id);
      // The current secret becomes the previous one, valid for the overlap; one before it is dropped.
      const rows = await queryRows(
        tx,
        sql`update webhook_endpoints
               set sealed_previous_secret = sealed_secret, sealed_secret = ${sealed}, previous_secret_until = ${until.toISOString()}::timestamptz
             where id = ${id} and workspace_id = ${workspaceId}
            returning id`,
      );
      if (rows.length === 0) throw notFound();
      return { id, secret, previousSecretUntil: until.toISOString() };
    },

    async sendTest(workspaceId, id, tx) {
      await findEndpoint(workspaceId, id, tx);
      const deliveryId = newId('webhookDelivery');
      const eventId = newId('webhookTest');
      const at = now().toISOString();
      const type: WebhookEventType = 'test';
      const write = async (on: DbOrTx) => {
        await on.execute(
          sql`insert into webhook_deliveries (id, endpoint_id, workspace_id, event_id, event_type, next_attempt_at, created_at)
              values (${deliveryId}, ${id}, ${workspaceId}, ${eventId}, ${type}, ${at}::timestamptz, ${at}::timestamptz)`,
        );
        // Delivered on commit: the workers wake once the row is there to claim.
        await notify(on, WEBHOOKS_DUE_CHANNEL, workspaceId);
      };
      await (tx ? write(tx) : db.transaction(write));
      return { deliveryId, eventId };
    },

    async deliveries(workspaceId, id) {
      await findEndpoint(workspaceId, id);
      const rows = await queryRows<{
        id: string;
        event_id: string;
        event_type: WebhookEventType;
        status: 'pending' | 'delivered' | 'failed' | 'dropped';
        attempts: number;
        next_attempt_at: string | Date;
        created_at: string | Date;
        last_attempts: WebhookAttemptRecord[] | string;
      }>(
        db,
        sql`select id, event_id, event_type, status, attempts, next_attempt_at, created_at, last_attempts
              from webhook_deliveries where endpoint_id = ${id}
             order by created_at desc, id desc limit ${LOG_LENGTH}`,
      );
      return {
        deliveries: rows.map((row) => ({
          id: row.id,
          eventId: row.event_id,
          eventType: row.event_type,
          status: row.status,
          attempts: Number(row.attempts),
          nextAttemptAt: row.status === 'pending' ? toDate(row.next_attempt_at).toISOString() : null,
          createdAt: toDate(row.created_at).toISOString(),
          lastAttempts: typeof row.last_attempts === 'string' ? JSON.parse(row.last_attempts) : row.last_attempts,
        })),
      };
    },
  };
}
