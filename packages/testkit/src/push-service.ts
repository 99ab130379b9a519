import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify } from 'jose';
import { recordSecret } from './log-audit/capture.ts';

/*
 * A push service on loopback for tests: a real RFC 8030 receiver (the part a browser vendor
 * runs). It makes subscriptions as a browser would (a P-256 ECDH pair and a 16-byte auth secret
 * each), takes pushes on their endpoints, checks the VAPID Authorization (RFC 8292), decrypts the
 * aes128gcm payload (RFC 8291) and keeps what it received, so tests see exactly what a device gets.
 */

// http_ece ships no types; the one function used here, typed.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(
    buffer: Buffer,
    params: { version: 'aes128gcm'; privateKey: ReturnType<typeof createECDH>; authSecret: string },
  ): Buffer;
};

/** RFC 8030 §5.2: a push message body is at most 4096 bytes. */
const MAX_BODY = 4096;
const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;

/** What a browser's `PushSubscription.toJSON()` gives. */
export interface TestPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** One push the service accepted, as the device would see it. */
export interface ReceivedPush {
  ttl: number;
  topic: string | null;
  urgency: string;
  contentEncoding: string;
  /** The VAPID token's claims; `verified` is always true here (a push that fails the check is refused). */
  vapid: { verified: boolean; aud: string; sub: string; exp: number };
  /** The decrypted payload, parsed as JSON. */
  payload: unknown;
  at: Date;
}

export interface TestPushService {
  /** The service's origin, `http://127.0.0.1:<port>`. */
  url: string;
  /** A new subscription restricted to `applicationServerKey` (the VAPID public key, base64url). */
  subscribe(applicationServerKey: string): { id: string; subscription: TestPushSubscription };
  /** The pushes accepted for a subscription, oldest first. */
  received(id: string): ReceivedPush[];
  /** Resolves with the pushes accepted for a subscription once there are `count` (default 1). */
  waitFor(id: string, count?: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  /** Every request to a subscription's endpoint with the status it got, including refused and failed ones. */
  requests(id: string): number[];
  /** The subscription is over: later pushes get 410 Gone. */
  expire(id: string): void;
  /** The next `times` pushes to the subscription get `status` (for example 500 or 429). */
  failNext(id: string, status: number, times?: number): void;
  close(): Promise<void>;
}

interface Subscription {
  applicationServerKey: string;
  ecdh: ReturnType<typeof createECDH>;
  auth: string;
  received: ReceivedPush[];
  requests: number[];
  expired: boolean;
  faults: number[];
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () =>
      size > MAX_BODY ? reject(new Refusal(413, 'payload over 4096 bytes')) : resolve(Buffer.concat(chunks)),
    );
    request.on('error', reject);
  });
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292 §3) for a push to `origin`. */
async function verifyVapid(
  header: string | undefined,
  origin: string,
  subscription: Subscription,
): Promise<ReceivedPush['vapid']> {
  const match = /^vapid\s+(.+)$/i.exec(header ?? '');
  if (!match) throw new Refusal(403, 'VAPID authorization required');
  const params = new Map<string, string>();
  for (const part of match[1]!.split(',')) {
    const at = part.indexOf('=');
    if (at > 0) params.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) throw new Refusal(403, 'VAPID t and k are required');
  // RFC 8292 §4.2: a subscription made with an applicationServerKey takes pushes signed by it only.
  if (key !== subscription.applicationServerKey) throw new Refusal(403, 'VAPID key does not match the subscription');
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Refusal(403, 'VAPID key is not an uncompressed P-256 point');
  const publicKey = await importJWK(
    { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    'ES256',
  );
  try {
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'], audience: origin });
    const exp = Number(payload.exp);
    // RFC 8292 §2: the token lives at most 24 hours.
    if (!Number.isFinite(exp) || exp > Date.now() / 1000 + 24 * 3600) throw new Refusal(403, 'VAPID exp missing or too far');
    if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
      throw new Refusal(403, 'VAPID sub must be mailto: or https:');
    return { verified: true, aud: String(payload.aud), sub: payload.sub, exp };
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(403, 'VAPID token does not verify');
  }
}

function idOf(request: IncomingMessage): string | undefined {
  return /^\/push\/([A-Za-z0-9_-]+)$/.exec(request.url ?? '')?.[1];
}

function parseTtl(value: string | undefined): number {
  if (value === undefined || !/^\d{1,10}$/.test(value)) throw new Refusal(400, 'TTL header required (RFC 8030 §5.2)');
  return Number(value);
}

export async function startPushService(): Promise<TestPushService> {
  const subscriptions = new Map<string, Subscription>();
  const waiters = new Set<() => void>();
  let origin = '';
  let messages = 0;

  async function accept(request: IncomingMessage, body: Promise<Buffer>, subscription: Subscription): Promise<ReceivedPush> {
    const ttl = parseTtl(request.headers.ttl as string | undefined);
    const urgency = (request.headers.urgency as string | undefined) ?? 'normal';
    if (!URGENCIES.has(urgency)) throw new Refusal(400, 'Urgency must be very-low, low, normal or high');
    const topic = (request.headers.topic as string | undefined) ?? null;
    if (topic !== null && !TOPIC.test(topic)) throw new Refusal(400, 'Topic must be 1 to 32 base64url characters');
    const vapid = await verifyVapid(request.headers.authorization, origin, subscription);
    const contentEncoding = request.headers['content-encoding'] ?? '';
    const bytes = await body;
    if (contentEncoding !== 'aes128gcm') throw new Refusal(415, 'Content-Encoding must be aes128gcm (RFC 8291)');
    let payload: unknown;
    try {
      const plain = ece.decrypt(bytes, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth });
      payload = JSON.parse(plain.toString('utf8'));
    } catch {
      throw new Refusal(400, 'payload does not decrypt to JSON');
    }
    return { ttl, topic, urgency, contentEncoding, vapid, payload, at: new Date() };
  }

  async function handle(request: IncomingMessage, body: Promise<Buffer>, response: ServerResponse): Promise<number> {
    const id = idOf(request);
    const subscription = id === undefined ? undefined : subscriptions.get(id);
    if (request.method !== 'POST' || !subscription) return end(response, 404);
    const fault = subscription.faults.shift();
    if (fault !== undefined) return end(response, fault, fault === 429 ? { 'retry-after': '1' } : {});
    if (subscription.expired) return end(response, 410);
    try {
      const push = await accept(request, body, subscription);
      subscription.received.push(push);
      messages += 1;
      for (const waiter of waiters) waiter();
      return end(response, 201, { location: `${origin}/message/m${messages}`, ttl: String(push.ttl) });
    } catch (error) {
      if (error instanceof Refusal) return end(response, error.status, {}, error.message);
      return end(response, 500);
    }
  }

  function end(response: ServerResponse, status: number, headers: Record<string, string> = {}, text = ''): number {
    if (!response.headersSent) response.writeHead(status, { 'content-type': 'text/plain', ...headers });
    response.end(text);
    return status;
  }

  const server = createServer((request, response) => {
    // Read from the start, so nothing is lost while the headers are checked (and a refused
    // request's body is drained all the same).
    const body = readBody(request);
    body.catch(() => {});
    handle(request, body, response)
      .then((status) => {
        const id = idOf(request);
        if (id !== undefined) subscriptions.get(id)?.requests.push(status);
      })
      .catch(() => end(response, 500));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const find = (id: string): Subscription => {
    const subscription = subscriptions.get(id);
    if (!subscription) throw new Error(`no test push subscription ${id}`);
    return subscription;
  };

  return {
    url: origin,
    subscribe(applicationServerKey) {
      const id = randomBytes(12).toString('base64url');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      subscriptions.set(id, { applicationServerKey, ecdh, auth, received: [], requests: [], expired: false, faults: [] });
      const subscription = {
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
      };
      // A subscription is a capability to reach the device: no log line may hold any part of it.
      recordSecret(subscription.endpoint, 'credential');
      recordSecret(subscription.keys.p256dh, 'credential');
      recordSecret(auth, 'credential');
      return { id, subscription };
    },
    received: (id) => [...find(id).received],
    waitFor(id, count = 1, timeoutMs = 5_000) {
      const subscription = find(id);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (subscription.received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...subscription.received]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${subscription.received.length} of ${count} pushes within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    requests: (id) => [...find(id).requests],
    expire(id) {
      find(id).expired = true;
    },
    failNext(id, status, times = 1) {
      find(id).faults.push(...Array.from({ length: times }, () => status));
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
