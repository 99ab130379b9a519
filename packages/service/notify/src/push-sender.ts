import type { Egress } from '@sess/core/egress';
import webPush from 'web-push';
import type { PushTarget } from './subscriptions.ts';

/** The VAPID identity a push is signed with (RFC 8292): the deployment's key pair and a contact. */
export interface VapidIdentity {
  /** A `mailto:` or `https:` contact the push service may use. */
  subject: string;
  publicKey: string;
  privateKey: string;
}

export interface PushOptions {
  vapid: VapidIdentity;
  /** How long the push service keeps the message for an offline device (the link's time left). */
  ttlSeconds: number;
  /** RFC 8030 Topic: a later message with the same topic replaces this one. */
  topic: string;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** The whole request (connect, send, response) must end within this. */
  timeoutMs: number;
  /**
   * Where the push goes out: a device's endpoint is a URL a signed-in person sent, so it goes
   * only where the egress policy allows (public addresses, checked at connect time).
   */
  egress: Egress;
}

/**
 * What became of a push: `accepted` (2xx), `gone` (404/410: the subscription is over), `retry`
 * (429, 5xx, network failure or timeout) or `rejected` (any other 4xx, e.g. 400, 403 or 413:
 * sending the same again cannot help).
 */
export type PushOutcome = 'accepted' | 'gone' | 'retry' | 'rejected';

export interface PushResult {
  outcome: PushOutcome;
  /** The push service's status, or null when no response came. */
  status: number | null;
  /** A `Retry-After` in seconds the service asked for (429, 503). */
  retryAfterSeconds?: number;
}

export function classifyPushStatus(status: number): PushOutcome {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 404 || status === 410) return 'gone';
  if (status === 429 || status >= 500) return 'retry';
  return 'rejected';
}

function retryAfter(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d{1,7}$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A VAPID token is signed once per push service and identity, and kept for an hour (it is valid for 12). */
const VAPID_REUSE_MS = 60 * 60_000;
const VAPID_VALID_SECONDS = 12 * 60 * 60;
const vapidTokens = new Map<string, { authorization: string; until: number }>();

function vapidAuthorization(vapid: VapidIdentity, audience: string): string {
  const key = `${audience}\n${vapid.subject}\n${vapid.publicKey}`;
  const cached = vapidTokens.get(key);
  if (cached && cached.until > Date.now()) return cached.authorization;
  const expiration = Math.floor(Date.now() / 1000) + VAPID_VALID_SECONDS;
  const headers = webPush.getVapidHeaders(
    audience,
    vapid.subject,
    vapid.publicKey,
    vapid.privateKey,
    'aes128gcm' as webPush.ContentEncoding,
    expiration,
  );
  if (vapidTokens.size >= 100) vapidTokens.clear(); // a few push services in practice
  vapidTokens.set(key, { authorization: headers.Authorization, until: Date.now() + VAPID_REUSE_MS });
  return headers.Authorization;
}

/** A push service's answer is a status; its body says nothing more, so little of it is read. */
const MAX_RESPONSE_BYTES = 16 * 1024;

/**
 * Encrypts `payload` for the device (RFC 8291, aes128gcm) and signs the request (VAPID) with
 * web-push, then posts it through the egress. web-push builds the request; it is sent here
 * because web-push only speaks https, and a push service run by tests on loopback is plain http.
 * Never throws for a failed delivery; never returns anything of the endpoint, keys or payload.
 */
export async function sendPush(target: PushTarget, payload: string, options: PushOptions): Promise<PushResult> {
  const endpoint = new URL(target.endpoint);
  let details: webPush.RequestDetails;
  try {
    // Without vapidDetails web-push only encrypts; the Authorization is the kept VAPID token.
    details = webPush.generateRequestDetails({ endpoint: target.endpoint, keys: target.keys }, payload, {
      TTL: Math.max(0, Math.floor(options.ttlSeconds)),
      topic: options.topic,
      urgency: options.urgency,
      contentEncoding: 'aes128gcm' as webPush.ContentEncoding,
    });
    details.headers.Authorization = vapidAuthorization(options.vapid, endpoint.origin);
  } catch {
    // A key the browser could not have made, or a bad VAPID identity: sending again cannot help.
    return { outcome: 'rejected', status: null };
  }
  const result = await options.egress.request({
    url: endpoint,
    method: 'POST',
    headers: details.headers,
    ...(details.body ? { body: details.body } : {}),
    timeoutMs: options.timeoutMs,
    maxBytes: MAX_RESPONSE_BYTES,
  });
  if (!result.ok) {
    // An endpoint the policy refuses can never be sent to: not worth a retry.
    const refused = result.reason === 'url_not_allowed' || result.reason === 'address_not_allowed';
    return { outcome: refused ? 'rejected' : 'retry', status: null };
  }
  const after = retryAfter(result.headers['retry-after']);
  return {
    outcome: classifyPushStatus(result.status),
    status: result.status,
    ...(after !== undefined ? { retryAfterSeconds: after } : {}),
  };
}
