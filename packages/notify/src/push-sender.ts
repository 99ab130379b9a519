import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { isLoopbackHostname } from '@sess/core';
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

/*
 * A device's endpoint is a URL a signed-in person sent: Sess must not be made to post to its own
 * network. An https endpoint is connected to only when every address its name resolves to is
 * public (checked at connect time, so a name that later resolves elsewhere is caught too).
 * Plain http goes only to a loopback push service, which only tests run.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

const NOT_PUBLIC_CODE = 'ESESS_NOT_PUBLIC';

function isPublicAddress({ address, family }: LookupAddress): boolean {
  return !NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** An https endpoint named by an address (connected to without a lookup) that is not public. */
function isNonPublicLiteral(hostname: string): boolean {
  const address = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  return family !== 0 && !isPublicAddress({ address, family });
}

/** `dns.lookup` that refuses a name with any address that is not public. */
function lookupPublic(
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
      const refused: NodeJS.ErrnoException = new Error('the push service does not resolve to public addresses only');
      refused.code = NOT_PUBLIC_CODE;
      return callback(refused, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

// Connections to a push service are kept for the next push: most devices share a few services
// (FCM, Mozilla, Apple), and a TLS handshake per push would cost more than the push. Idle
// sockets do not keep the process alive.
const AGENTS = {
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true, lookup: lookupPublic as HttpsAgentLookup }),
};
type HttpsAgentLookup = NonNullable<ConstructorParameters<typeof HttpsAgent>[0]>['lookup'];

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

/**
 * Encrypts `payload` for the device (RFC 8291, aes128gcm) and signs the request (VAPID) with
 * web-push, then posts it. web-push builds the request; it is sent here because web-push only
 * speaks https, and a push service run by tests on loopback is plain http. Never throws for a
 * failed delivery; never returns anything of the endpoint, keys or payload.
 */
export async function sendPush(target: PushTarget, payload: string, options: PushOptions): Promise<PushResult> {
  const endpoint = new URL(target.endpoint);
  const plainHttp = endpoint.protocol === 'http:';
  if (
    plainHttp ? !isLoopbackHostname(endpoint.hostname) : endpoint.protocol !== 'https:' || isNonPublicLiteral(endpoint.hostname)
  )
    return { outcome: 'rejected', status: null };
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
  const send = plainHttp ? httpRequest : httpsRequest;
  return new Promise<PushResult>((resolve) => {
    const agent = plainHttp ? AGENTS.http : AGENTS.https;
    const req = send(endpoint, { method: 'POST', headers: details.headers, agent }, (response) => {
      response.resume(); // the body says nothing the status does not
      response.on('end', () => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        const after = retryAfter(response.headers['retry-after']);
        resolve({ outcome: classifyPushStatus(status), status, ...(after !== undefined ? { retryAfterSeconds: after } : {}) });
      });
      response.on('error', () => {
        clearTimeout(timer);
        resolve({ outcome: 'retry', status: null });
      });
    });
    const timer = setTimeout(() => req.destroy(new Error('push timed out')), options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // An endpoint in a private network can never be sent to: not worth a retry.
      resolve({ outcome: error.code === NOT_PUBLIC_CODE ? 'rejected' : 'retry', status: null });
    });
    req.end(details.body ?? undefined);
  });
}
