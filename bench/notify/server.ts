/**
 * The server half of bench/notify (started by run.ts, pinned to core 0): `sess serve` as
 * `startServer` runs it (the app, the outbox worker when BENCH_NOTIFICATIONS=on; `held` writes the
 * outbox and sends nothing; `off`) on PostgreSQL.
 * One person signs in through the real OAuth flow and connects GRANTS apps, one per workspace
 * (each principal has its own cap of 100 unfinished interactions). Prints one JSON line with the
 * URL, the tokens, the person's id and the deployment's VAPID public key.
 */
import { openDatabase, workspaces } from '@sess/db';
import { createNotifySealers, loadVapidKeys } from '@sess/notify';
import { loadConfig, startServer } from '@sess/server';
import { type CookieJar, createTestUser, createTestWorkspace, freePort, signInAndAuthorize } from '@sess/testkit';
import { eq } from 'drizzle-orm';

const DATABASE_URL = process.env.DATABASE_URL!;
const SECRET = process.env.BENCH_SECRET!;
const GRANTS = Number(process.env.BENCH_GRANTS ?? 20);

const port = await freePort();
const publicUrl = `http://127.0.0.1:${port}`;
const notifications = process.env.BENCH_NOTIFICATIONS ?? 'on';
// Not production: the held server needs the test flag that holds the worker, and all three run alike.
const config = loadConfig({
  NODE_ENV: 'development',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: publicUrl,
  LOG_LEVEL: 'warn',
  SESS_SECRET: SECRET,
  SESS_SIGNUP: 'open',
  DATABASE_URL,
  SESS_NOTIFICATIONS: notifications === 'off' ? 'off' : 'on',
  SESS_TEST_HOLD_NOTIFICATIONS: notifications === 'held' ? '1' : '0',
  SESS_TEST_LOOPBACK_EGRESS: '1', // the push service is on loopback
  SESS_VAPID_SUBJECT: 'mailto:bench@sess.si',
  SESS_MCP_RATE_PER_IP: '100000',
  SESS_MCP_RATE_PER_PRINCIPAL: '100000',
});
const server = await startServer(config);
const { db } = server.database;

const person = await createTestUser(db);
const workspaceIds = [person.workspaceId];
for (let i = 1; i < GRANTS; i++)
  workspaceIds.push((await createTestWorkspace(db, { userId: person.userId, role: 'owner' })).workspaceId);
const tokens: string[] = [];
let browser: CookieJar | undefined;
for (const workspaceId of workspaceIds) {
  await db.update(workspaces).set({ plan: 'enterprise' }).where(eq(workspaces.id, workspaceId));
  const connected = await signInAndAuthorize({ baseUrl: publicUrl, user: person, workspaceId, ...(browser ? { browser } : {}) });
  browser = connected.browser;
  tokens.push(connected.tokens.accessToken);
}
// The same database as the server, through a connection of the bench's own (the keys are made once per deployment).
const side = await openDatabase({ url: DATABASE_URL, poolMax: 1 });
const vapid = await loadVapidKeys(side.db, createNotifySealers(SECRET));
await side.close();

console.log(JSON.stringify({ ready: true, url: publicUrl, tokens, userId: person.userId, vapidPublicKey: vapid.publicKey }));

process.on('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
