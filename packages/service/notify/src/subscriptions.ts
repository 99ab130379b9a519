import { randomBytes } from 'node:crypto';
import { describeTextProblem, findTextProblem, newId, SessError, safeEqual, sha256Hex } from '@sess/core';
import { checkEgressUrl, type EgressPolicy } from '@sess/core/egress';
import { type Db, type DbOrTx, pushSubscriptions } from '@sess/db';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { NotifySealers } from './sealers.ts';

/** The most devices one person keeps; a new one past it is refused with a way out. */
export const MAX_DEVICES_PER_PERSON = 20;
export const DEVICE_NAME_MAX = 80;
const ENDPOINT_MAX = 2048;

/** What a browser's `PushSubscription.toJSON()` gives, checked. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A device as the account page lists it (nothing of its endpoint or keys). */
export interface DeviceSummary {
  id: string;
  name: string;
  createdAt: Date;
  lastDeliveryAt: Date | null;
  lastFailureAt: Date | null;
}

const invalid = (message: string, field: string) => new SessError('INVALID_ARGUMENTS', message, { field });

function base64urlBytes(value: unknown, field: string, length: number, what: string): string {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(value))
    throw invalid(`${what} must be base64url text, as the browser's PushSubscription gives it.`, field);
  const bytes = Buffer.from(value.replace(/=+$/, ''), 'base64url');
  if (bytes.length !== length) throw invalid(`${what} must be ${length} bytes; this is ${bytes.length}.`, field);
  return value.replace(/=+$/, '');
}

/**
 * Checks a subscription a browser sent (`PushSubscription.toJSON()`): an endpoint the egress
 * policy may send to as far as can be told without DNS (https, no credentials, not an address
 * or name of a private network; http to loopback only under the test policy), a P-256 public
 * key (65 bytes, uncompressed) and a 16-byte auth secret. JSON pointers name the field.
 */
export function parsePushTarget(input: unknown, options: { policy: EgressPolicy }): PushTarget {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalid('The subscription must be a JSON object with endpoint and keys.', '');
  const { endpoint, keys } = input as { endpoint?: unknown; keys?: unknown };
  if (typeof endpoint !== 'string' || endpoint.length > ENDPOINT_MAX || !URL.canParse(endpoint))
    throw invalid(`endpoint must be an absolute URL of at most ${ENDPOINT_MAX} characters.`, '/endpoint');
  const verdict = checkEgressUrl(new URL(endpoint), options.policy);
  if (!verdict.ok)
    throw invalid(
      `endpoint must be an https:// URL of a push service on a public address, without credentials (${verdict.message}).`,
      '/endpoint',
    );
  if (typeof keys !== 'object' || keys === null) throw invalid('keys must be an object with p256dh and auth.', '/keys');
  const { p256dh, auth } = keys as { p256dh?: unknown; auth?: unknown };
  const publicKey = base64urlBytes(p256dh, '/keys/p256dh', 65, 'keys.p256dh');
  if (Buffer.from(publicKey, 'base64url')[0] !== 4)
    throw invalid('keys.p256dh must be an uncompressed P-256 point.', '/keys/p256dh');
  return { endpoint, keys: { p256dh: publicKey, auth: base64urlBytes(auth, '/keys/auth', 16, 'keys.auth') } };
}

/** What proves a renewal comes from the browser a device was saved from: its old subscription's endpoint and auth secret. */
export interface RenewalProof {
  endpoint: string;
  auth: string;
}

/**
 * Checks the old subscription a renewal names (`{ endpoint, auth }`, as its `toJSON()` gives
 * them). Only its shape: whether it is a saved device is `renewDevice`'s to say.
 */
export function parseRenewalProof(input: unknown): RenewalProof {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalid("old must be a JSON object with the old subscription's endpoint and auth.", '');
  const { endpoint, auth } = input as { endpoint?: unknown; auth?: unknown };
  if (typeof endpoint !== 'string' || endpoint.length === 0 || endpoint.length > ENDPOINT_MAX)
    throw invalid(`old.endpoint must be the old subscription's endpoint, at most ${ENDPOINT_MAX} characters.`, '/endpoint');
  return { endpoint, auth: base64urlBytes(auth, '/auth', 16, 'old.auth') };
}

/** Checks a device's name: 1 to 80 characters Sess can store and show. */
export function parseDeviceName(input: unknown): string {
  const name = typeof input === 'string' ? input.trim() : '';
  if (name.length === 0 || [...name].length > DEVICE_NAME_MAX)
    throw invalid(`The device name must be 1 to ${DEVICE_NAME_MAX} characters.`, '/name');
  const problem = findTextProblem(name);
  if (problem) throw invalid(`The device name ${describeTextProblem(problem)}. Remove it.`, '/name');
  return name;
}

/**
 * Takes the lock every change to a person's set of devices holds until commit (a save, a
 * renewal): two adds at once cannot both take the last place, and a renewal moving a device onto
 * an endpoint cannot race a save of the same endpoint into a duplicate.
 */
async function lockDevicesOf(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`push_subscriptions:${userId}`}, 0))`);
}

/**
 * Saves a device for `userId`. A device is the person's endpoint: the same browser subscribing
 * again for the same person updates its row (keys and name); the same endpoint saved by another
 * person (two accounts on one browser, or someone who only knows the endpoint) is another device,
 * theirs, and neither request changes the other's. Returns the device id.
 * @throws SessError `INVALID_ARGUMENTS` when the person already has MAX_DEVICES_PER_PERSON others.
 */
export async function saveDevice(
  db: Db,
  sealers: NotifySealers,
  input: { userId: string; target: PushTarget; name: string; now: Date },
): Promise<string> {
  const endpointSha256 = sha256Hex(input.target.endpoint);
  return db.transaction(async (tx) => {
    await lockDevicesOf(tx, input.userId);
    const [existing] = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, input.userId), eq(pushSubscriptions.endpointSha256, endpointSha256)))
      .for('update');
    if (existing) {
      await tx
        .update(pushSubscriptions)
        .set({
          sealed: sealers.subscription.seal(existing.id, JSON.stringify(input.target)),
          name: input.name,
          lastFailureAt: null,
        })
        .where(eq(pushSubscriptions.id, existing.id));
      return existing.id;
    }
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, input.userId));
    if (Number(count?.n ?? 0) >= MAX_DEVICES_PER_PERSON)
      throw new SessError(
        'INVALID_ARGUMENTS',
        `You have ${MAX_DEVICES_PER_PERSON} devices, the most Sess keeps. Remove one you no longer use, then try again.`,
        { field: '', limit: MAX_DEVICES_PER_PERSON },
      );
    const id = newId('pushSubscription');
    await tx.insert(pushSubscriptions).values({
      id,
      userId: input.userId,
      endpointSha256,
      sealed: sealers.subscription.seal(id, JSON.stringify(input.target)),
      name: input.name,
      createdAt: input.now,
    });
    return id;
  });
}

/** A saved device row as the renewal reads it. */
interface DeviceRow {
  id: string;
  userId: string;
  sealed: string;
}

/**
 * A device row no endpoint has, sealed once per set of sealers: a renewal naming an endpoint Sess
 * does not have opens and compares this instead, so it does the same work as one naming an
 * endpoint Sess has with a wrong secret.
 */
const standIns = new WeakMap<NotifySealers, DeviceRow>();
function standInRow(sealers: NotifySealers): DeviceRow {
  let row = standIns.get(sealers);
  if (!row) {
    const id = newId('pushSubscription');
    const target: PushTarget = {
      endpoint: `https://push.invalid/${randomBytes(120).toString('base64url')}`,
      keys: { p256dh: randomBytes(65).toString('base64url'), auth: randomBytes(16).toString('base64url') },
    };
    row = { id, userId: '', sealed: sealers.subscription.seal(id, JSON.stringify(target)) };
    standIns.set(sealers, row);
  }
  return row;
}

/** Whether `row` is the device of the browser holding `auth` (its seal opens and its secret matches, in constant time). */
function proves(sealers: NotifySealers, row: DeviceRow, auth: string): boolean {
  const saved = openDevice(sealers, row);
  return saved !== undefined && safeEqual(saved.keys.auth, auth);
}

/**
 * Moves the devices of the browser whose push service replaced its subscription (the service
 * worker's `pushsubscriptionchange`) to the new one, each keeping its id, person and name.
 * Nobody is signed in when that runs, so the proof is the old subscription's auth secret: only
 * that browser and Sess hold it (it is never sent to the push service), and it is compared in
 * constant time. Only the rows it proves move: the same subscription saved by two people (one
 * browser, two accounts) moves for both; a row someone saved with the endpoint but other keys
 * does not. The same person's device already on the new endpoint (the browser added again) gives
 * way; another person's is never touched.
 *
 * A proof that fails reads one statement, locks nothing and writes nothing, and opens one seal
 * whether the endpoint is saved or not (a stand-in when it is not), so the answer costs the same
 * for a known endpoint as for an unknown one. Returns the ids moved: none when no device has that
 * endpoint and secret (removed, forgotten as gone, renewed already, or never saved), and nothing
 * is changed then.
 */
export async function renewDevice(
  db: Db,
  sealers: NotifySealers,
  input: { old: RenewalProof; target: PushTarget },
): Promise<string[]> {
  const rows = await db
    .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId, sealed: pushSubscriptions.sealed })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.endpointSha256, sha256Hex(input.old.endpoint)));
  if (rows.length === 0) {
    proves(sealers, standInRow(sealers), input.old.auth);
    return [];
  }
  const proven = rows.filter((row) => proves(sealers, row, input.old.auth));
  if (proven.length === 0) return [];
  return moveDevices(db, sealers, proven, input.target);
}

/**
 * The renewal's write, once the proof holds: each proven row moves only if it is still the row
 * that was verified (same id and seal; a save, removal or renewal since then leaves it be). People
 * are locked in one order, so two renewals over the same people cannot deadlock.
 */
async function moveDevices(db: Db, sealers: NotifySealers, proven: DeviceRow[], target: PushTarget): Promise<string[]> {
  const newSha256 = sha256Hex(target.endpoint);
  const inOrder = [...proven].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
  return db.transaction(async (tx) => {
    const moved: string[] = [];
    for (const row of inOrder) {
      await lockDevicesOf(tx, row.userId);
      const [still] = await tx
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.id, row.id), eq(pushSubscriptions.sealed, row.sealed)))
        .for('update');
      if (!still) continue;
      await tx
        .delete(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.userId, row.userId),
            eq(pushSubscriptions.endpointSha256, newSha256),
            ne(pushSubscriptions.id, row.id),
          ),
        );
      await tx
        .update(pushSubscriptions)
        .set({
          endpointSha256: newSha256,
          sealed: sealers.subscription.seal(row.id, JSON.stringify(target)),
          lastFailureAt: null,
        })
        .where(eq(pushSubscriptions.id, row.id));
      moved.push(row.id);
    }
    return moved;
  });
}

/** The person's devices, oldest first. */
export async function listDevices(db: DbOrTx, userId: string): Promise<DeviceSummary[]> {
  return db
    .select({
      id: pushSubscriptions.id,
      name: pushSubscriptions.name,
      createdAt: pushSubscriptions.createdAt,
      lastDeliveryAt: pushSubscriptions.lastDeliveryAt,
      lastFailureAt: pushSubscriptions.lastFailureAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
}

/** Removes one of the person's devices; false when they have none by that id. */
export async function removeDevice(db: DbOrTx, userId: string, deviceId: string): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, deviceId), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}

/** A device with what a push to it needs (opened from its seal); a row that does not open is left out. */
export interface DeliveryTarget extends PushTarget {
  id: string;
}

/** A device row opened from its seal; undefined when it does not open (sealed under another SESS_SECRET). */
export function openDevice(sealers: NotifySealers, row: { id: string; sealed: string }): DeliveryTarget | undefined {
  try {
    return { id: row.id, ...(JSON.parse(sealers.subscription.open(row.id, row.sealed)) as PushTarget) };
  } catch {
    return undefined; // unusable; the person subscribes again
  }
}

/** The person's devices, opened. */
export async function readDeliveryTargets(db: DbOrTx, sealers: NotifySealers, userId: string): Promise<DeliveryTarget[]> {
  const rows = await db
    .select({ id: pushSubscriptions.id, sealed: pushSubscriptions.sealed })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return rows.map((row) => openDevice(sealers, row)).filter((target): target is DeliveryTarget => target !== undefined);
}

/** Records a push that failed for now (the device stays; the row is retried). */
export async function markFailed(db: DbOrTx, userId: string, deviceId: string, at: Date): Promise<void> {
  await db
    .update(pushSubscriptions)
    .set({ lastFailureAt: at })
    .where(and(eq(pushSubscriptions.id, deviceId), eq(pushSubscriptions.userId, userId)));
}

/** Forgets a device its push service says is gone (404 or 410). */
export async function forgetDevice(db: DbOrTx, userId: string, deviceId: string): Promise<void> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.id, deviceId), eq(pushSubscriptions.userId, userId)));
}
