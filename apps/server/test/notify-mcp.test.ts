import type { Client } from '@modelcontextprotocol/client';
import { createApiKey } from '@sess/accounts';
import { queryRows } from '@sess/db';
import {
  DEFAULT_SETTINGS,
  listDevices,
  type NotificationWorker,
  OUTBOX_CHANNEL,
  REACH_CHANNEL,
  saveSettings,
} from '@sess/notify';
import {
  createTestUser,
  findForm,
  listenForMessage,
  recordSecret,
  sampleAskArguments,
  sampleSurface,
  signInTestUser,
  type TestUser,
} from '@sess/testkit';
import { type ReceivedPush, startPushService, type TestPushService } from '@sess/testkit/push-service';
import { type SmtpSink, startSmtpSink } from '@sess/testkit/smtp-sink';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { answerOnPage } from './support/answer-page.ts';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { connectSignedIn, connectWithKey, notifyThisDevice, startTestWorker } from './support/notify-device.ts';

/*
 * Notifications end to end (issue 16): the real app, the real MCP client signed in through OAuth
 * (or with a workspace API key), a device saved through the notifications page's JSON route
 * against a real RFC 8030 push service on loopback, and @sess/notify's worker sending the outbox
 * after commit (driven step by step with runOnce; server.ts's own worker is in notify-crash).
 */

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  expiresAt?: string;
  notified?: boolean;
  response?: { eventId: string };
  ask?: { id: string; open: boolean };
};
type DevicePush = { v: number; id: string; tag: string; kind: string; title: string; body: string; url: string };

const ASK = {
  question: 'Deploy the new build tonight?',
  fields: [{ name: 'when', label: 'When', type: 'choice', options: ['Now', 'At 22:00'] }],
  submit_label: 'Send',
};

const interactionOf = (result: unknown) =>
  (result as { structuredContent: { interaction: Interaction } }).structuredContent.interaction;
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const payloadOf = (push: ReceivedPush) => push.payload as DevicePush;

async function outboxRows(server: AppServer, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    server.database.db,
    sql`select count(*)::int as n from notification_outbox where user_id = ${userId}`,
  );
  return Number(row?.n ?? 0);
}

/** Listens for the server's bus to tell that `userId`'s devices or settings changed (its reach cache, subscribed first, hears it before). */
function reachTold(server: AppServer, userId: string): Promise<() => Promise<void>> {
  return listenForMessage(server.database.bus, REACH_CHANNEL, userId);
}

/** A person with an account, a signed-in browser, and (unless told) one device that takes pushes. */
async function person(
  server: AppServer,
  push: TestPushService,
  options: { device?: boolean } = {},
): Promise<{ user: TestUser; device?: string }> {
  const user = await createTestUser(server.database.db);
  if (options.device === false) return { user };
  const { cookie } = await signInTestUser(server.database.db, user.userId);
  return { user, device: await notifyThisDevice(server.url, cookie, push) };
}

/** One person opens an Ask's shared link, starts their own page (Start) and answers there. */
async function answerAsRespondent(askUrl: string, values: Record<string, string>, action?: string) {
  const askLink = new URL(askUrl);
  const startPath = `${askLink.pathname}/start`;
  const startForm = findForm(await (await fetch(askLink)).text(), startPath);
  const started = await fetch(new URL(startPath, askLink), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: askLink.origin },
    body: new URLSearchParams(startForm.fields),
  });
  expect(started.status).toBe(303);
  return answerOnPage(new URL(started.headers.get('location')!, askLink).toString(), values, action);
}

describe('Web Push for forms made through /mcp', () => {
  let server: AppServer;
  let push: TestPushService;
  let worker: NotificationWorker;
  const clients: Client[] = [];
  beforeAll(async () => {
    push = await startPushService();
    server = await startAppServer();
    worker = startTestWorker(server);
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await worker?.close();
    await server?.close();
    await push?.close();
  });
  const signedIn = async (user: TestUser) => {
    const client = await connectSignedIn(server.url, user);
    clients.push(client);
    return client;
  };

  it('a create — its session, revision, handle record and notice — commits in ONE statement, shared with the creates of its moment', async () => {
    const people = await Promise.all(Array.from({ length: 4 }, () => person(server, push)));
    const quiet = await person(server, push, { device: false });
    const agents = await Promise.all([...people, quiet].map(({ user }) => signedIn(user)));
    const wakes: string[] = [];
    const unlisten = await server.database.bus.subscribe(OUTBOX_CHANNEL, (payload) => wakes.push(payload));
    const made = (await Promise.all(agents.map((agent) => agent.callTool({ name: 'sess_ask', arguments: ASK })))).map(
      interactionOf,
    );
    expect(made.map((m) => m.notified)).toEqual([true, true, true, true, false]);
    const list = sql.raw(`(${made.map((m) => `'${m.handle}'`).join(',')})`);
    // Rows written by one statement share its transaction id: each create's rows have one, and
    // the creates that reached the server in the same turn share theirs.
    const writers = await queryRows<{ handle: string; xids: string[]; tables: string[] }>(
      server.database.db,
      sql`with h as (select handle, session_id from mcp_handles where handle in ${list})
          select handle, array_agg(distinct xid) as xids, array_agg(distinct t order by t) as tables from (
            select h.handle, x.xmin::text as xid, 'mcp_handles' as t from mcp_handles x join h on h.handle = x.handle
            union all select h.handle, s.xmin::text, 'form_sessions' from form_sessions s join h on h.session_id = s.id
            union all select h.handle, r.xmin::text, 'form_revisions' from form_revisions r join h on h.session_id = r.session_id
            union all select h.handle, o.xmin::text, 'notification_outbox' from notification_outbox o join h on h.session_id = o.session_id
          ) w group by handle`,
    );
    expect(writers).toHaveLength(5);
    for (const writer of writers) {
      expect(writer.xids).toHaveLength(1);
      const noticed = writer.handle !== made[4]!.handle;
      expect(writer.tables).toEqual(
        noticed
          ? ['form_revisions', 'form_sessions', 'mcp_handles', 'notification_outbox']
          : ['form_revisions', 'form_sessions', 'mcp_handles'],
      );
    }
    // One notice per person with a device, none for the person without one.
    for (const [i, { user }] of [...people, quiet].entries()) expect(await outboxRows(server, user.userId)).toBe(i < 4 ? 1 : 0);
    // The statement that wrote the notices woke the workers on its commit, with no statement of its own.
    await vi.waitFor(() => expect(wakes.length).toBeGreaterThan(0));
    await unlisten();
    expect(await worker.runOnce()).toBe(4);
  });

  it('sess_ask → notified, the push carries the title and the link (TTL the link’s life, urgency high); sess_publish → a second push with the same Topic', async () => {
    const { user, device } = await person(server, push);
    const client = await signedIn(user);

    const result = await client.callTool({ name: 'sess_ask', arguments: ASK });
    const created = interactionOf(result);
    expect(created).toMatchObject({ state: 'waiting', notified: true });
    // The two agent lines the contract fixes still start the text.
    expect(textOf(result).split('\n').slice(0, 2)).toEqual([
      `Show the person this link now: ${created.humanUrl}`,
      'Then call sess_response.',
    ]);
    expect(push.received(device!)).toEqual([]); // sent after commit, by the worker

    expect(await worker.runOnce()).toBe(1);
    const [first] = push.received(device!);
    expect(payloadOf(first!)).toMatchObject({ kind: 'form', title: ASK.question, url: created.humanUrl });
    expect(first!.urgency).toBe('high');
    expect(first!.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(payloadOf(first!).tag).toBe(first!.topic);
    const lifetime = (Date.parse(created.expiresAt!) - server.clock.now().getTime()) / 1000;
    expect(Math.abs(first!.ttl - lifetime)).toBeLessThanOrEqual(2);
    expect(first!.vapid).toMatchObject({ verified: true, sub: 'mailto:sess@localhost', aud: push.url });

    expect((await answerOnPage(created.humanUrl!, { when: 'Now' })).status).toBe(303);
    const answered = interactionOf(
      await client.callTool({ name: 'sess_response', arguments: { handle: created.handle, revision: 1, wait_ms: 0 } }),
    );
    expect(answered.state).toBe('answered');
    const published = interactionOf(
      await client.callTool({
        name: 'sess_publish',
        arguments: {
          handle: created.handle,
          expected_revision: 1,
          response_event_id: answered.response!.eventId,
          interaction: sampleSurface('Ready to deploy?'),
        },
      }),
    );
    expect(published).toMatchObject({ state: 'waiting', revision: 2 });
    expect(await worker.runOnce()).toBe(1);
    const pushes = push.received(device!);
    expect(pushes).toHaveLength(2);
    expect(payloadOf(pushes[1]!)).toMatchObject({ kind: 'follow_up', title: 'Ready to deploy?', url: created.humanUrl });
    expect(pushes[1]!.topic).toBe(first!.topic);
    expect(pushes[1]!.urgency).toBe('high');
    // Nothing is left to send, and nothing is sent twice.
    expect(await worker.runOnce()).toBe(0);
    expect(await outboxRows(server, user.userId)).toBe(0);
    expect(push.received(device!)).toHaveLength(2);
  });

  it('a device its push service says is gone (410) is forgotten; the next form tells no one', async () => {
    const { user, device } = await person(server, push);
    const client = await signedIn(user);
    push.expire(device!);
    const created = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
    expect(created.notified).toBe(true);
    const told = await reachTold(server, user.userId);
    await worker.runOnce();
    expect(push.requests(device!)).toEqual([410]);
    expect(await listDevices(server.database.db, user.userId)).toEqual([]);
    await told(); // the server's reach cache heard it too (it subscribed first)
    const next = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
    expect(next.notified).toBe(false);
    expect(await outboxRows(server, user.userId)).toBe(0);
  });

  it('a person who turns on “Notify this device” after a create is notified from the next one', async () => {
    const { user } = await person(server, push, { device: false });
    const client = await signedIn(user);
    expect(interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK })).notified).toBe(false);
    const told = await reachTold(server, user.userId);
    const { cookie } = await signInTestUser(server.database.db, user.userId);
    const device = await notifyThisDevice(server.url, cookie, push);
    await told();
    expect(interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK })).notified).toBe(true);
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(device)).toHaveLength(1);
    // Reminders chosen: the next form's notice comes with its reminder, in the same statement.
    const remindersTold = await reachTold(server, user.userId);
    await saveSettings(server.database.db, user.userId, { ...DEFAULT_SETTINGS, reminders: true }, server.clock.now());
    await remindersTold();
    const reminded = interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK }));
    const rows = await queryRows<{ kind: string; session_id: string }>(
      server.database.db,
      sql`select kind, session_id from notification_outbox where user_id = ${user.userId} order by kind`,
    );
    expect(rows.map((r) => r.kind)).toEqual(['form', 'reminder']);
    expect(new Set(rows.map((r) => r.session_id)).size).toBe(1);
    expect(reminded.notified).toBe(true);
  });

  it('a person with no device (and no e-mail configured) is not notified, nothing is queued and no worker is woken', async () => {
    const { user } = await person(server, push, { device: false });
    const client = await signedIn(user);
    const other = await person(server, push);
    const otherClient = await signedIn(other.user);
    const wakes: string[] = [];
    const unlisten = await server.database.bus.subscribe(OUTBOX_CHANNEL, (payload) => wakes.push(payload));
    const created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK }));
    expect(created.notified).toBe(false);
    expect(await outboxRows(server, user.userId)).toBe(0);
    // A notified create after it: notifications arrive in commit order, so if the first create had
    // woken the workers, two wakes would be heard by the time the second one is.
    expect(interactionOf(await otherClient.callTool({ name: 'sess_ask', arguments: ASK })).notified).toBe(true);
    await vi.waitFor(() => expect(wakes.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await unlisten();
    expect(wakes).toHaveLength(1);
    await worker.runOnce();
  });

  it("an API key's forms notify the workspace's owner only once they chose so", async () => {
    const { user, device } = await person(server, push);
    const made = await createApiKey({
      ctx: { db: server.database.db, now: server.clock.now },
      input: { workspaceId: user.workspaceId, name: 'headless agent', createdBy: user.userId },
    });
    recordSecret(made.key, 'api-key');
    const client = await connectWithKey(server.url, made.key);
    clients.push(client);

    const before = interactionOf(await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } }));
    expect(before.notified).toBe(false);
    expect(await worker.runOnce()).toBe(0);
    expect(push.received(device!)).toEqual([]);

    await saveSettings(server.database.db, user.userId, { ...DEFAULT_SETTINGS, apiKeyForms: true }, server.clock.now());
    const after = interactionOf(
      await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('Rotate the keys?') } }),
    );
    expect(after.notified).toBe(true);
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(device!).map((p) => payloadOf(p))).toMatchObject([
      { kind: 'form', title: 'Rotate the keys?', url: after.humanUrl },
    ]);
  });

  it('an Ask shared with others notifies only its owner, when it closes', async () => {
    const { user, device } = await person(server, push);
    const client = await signedIn(user);
    const args = sampleAskArguments({ max: 1 });
    const created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: args }));
    // The link goes to no one: the agent shares it.
    expect(created.notified).toBe(false);
    expect(await worker.runOnce()).toBe(0); // due at the deadline, or when the Ask fills

    // One person starts their own page from the shared link and answers: the Ask is full.
    expect((await answerAsRespondent(created.humanUrl!, { place: 'Beach' })).status).toBe(303);

    expect(await worker.runOnce()).toBe(1);
    const pushes = push.received(device!);
    expect(pushes.map((p) => payloadOf(p))).toMatchObject([{ kind: 'ask_closed', title: args.question, url: created.humanUrl }]);
    expect(payloadOf(pushes[0]!).body).toMatch(/1/);
  });

  it('an Ask that decides tells its owner once, when the deciding answer closes it, with the outcome', async () => {
    const { user, device } = await person(server, push);
    const client = await signedIn(user);
    const args = {
      question: 'Ship the release?',
      fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
      respondents: { max: 3, decide: 'quorum', quorum: 2 },
    };
    const created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: args }));
    expect((await answerAsRespondent(created.humanUrl!, {}, 'approve')).status).toBe(303);
    expect(await worker.runOnce()).toBe(0);
    expect((await answerAsRespondent(created.humanUrl!, {}, 'approve')).status).toBe(303);
    expect(await worker.runOnce()).toBe(1);
    const pushes = push.received(device!).map((p) => payloadOf(p));
    expect(pushes).toMatchObject([{ kind: 'ask_closed', title: args.question, body: 'Decided: approved, with 2 answers.' }]);
  });

  it('an Ask owner who chose each answer is told of every answer, then of the close', async () => {
    const { user, device } = await person(server, push);
    await saveSettings(server.database.db, user.userId, { ...DEFAULT_SETTINGS, askUpdates: 'each_answer' }, server.clock.now());
    const client = await signedIn(user);
    const created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: sampleAskArguments({ max: 2 }) }));
    for (const place of ['Beach', 'City']) {
      expect((await answerAsRespondent(created.humanUrl!, { place })).status).toBe(303);
      await worker.runOnce();
    }
    expect(push.received(device!).map((p) => payloadOf(p).kind)).toEqual(['ask_answer', 'ask_closed']);
    expect(new Set(push.received(device!).map((p) => p.topic)).size).toBe(1);
  });
});

describe('e-mail, when SMTP is configured', () => {
  let server: AppServer;
  let sink: SmtpSink;
  let worker: NotificationWorker;
  let client: Client | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startAppServer({ SMTP_URL: sink.url, SMTP_FROM: 'sess@acme.io' });
    worker = startTestWorker(server, { mail: { smtpUrl: sink.url, from: 'sess@acme.io' } });
  });
  afterAll(async () => {
    await client?.close();
    await worker?.close();
    await server?.close();
    await sink?.close();
  });

  it('a person with no device gets the link by e-mail', async () => {
    const user = await createTestUser(server.database.db);
    client = await connectSignedIn(server.url, user);
    const created = interactionOf(
      await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface('Sign the lease?') } }),
    );
    expect(created.notified).toBe(true);
    expect(await worker.runOnce()).toBe(1);
    const mail = await sink.waitFor((message) => message.to.includes(user.email));
    expect(mail.from).toBe('sess@acme.io');
    expect(mail.subject).toContain('Sign the lease?');
    expect(mail.text).toContain(created.humanUrl);
  });
});

describe('SESS_NOTIFICATIONS=off', () => {
  let server: AppServer;
  let push: TestPushService;
  let client: Client | undefined;
  beforeAll(async () => {
    push = await startPushService();
    server = await startAppServer({ SESS_NOTIFICATIONS: 'off' });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await push?.close();
  });

  it('writes no outbox rows, even for a person with a device', async () => {
    const { user } = await person(server, push);
    client = await connectSignedIn(server.url, user);
    const created = interactionOf(await client.callTool({ name: 'sess_ask', arguments: ASK }));
    expect(created.notified).toBe(false);
    expect(await outboxRows(server, user.userId)).toBe(0);
  });
});
