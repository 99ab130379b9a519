import type { Client } from '@modelcontextprotocol/client';
import { createApiKey } from '@sess/accounts';
import { newId } from '@sess/core';
import { memberships } from '@sess/db';
import type { NotificationWorker } from '@sess/notify';
import {
  answerOnPage,
  createTestUser,
  findForm,
  recordSecret,
  sampleAskArguments,
  signInTestUser,
  type TestUser,
} from '@sess/testkit';
import { type ReceivedPush, startPushService, type TestPushService } from '@sess/testkit/push-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';
import { connectSignedIn, notifyThisDevice, startTestWorker } from './support/notify-device.ts';

/*
 * An Ask with named respondents (respondents.people) tells each named person on their own
 * devices: the Ask's shared link with its question, committed with the Ask. Through the hosted
 * /mcp (a person's OAuth connection) and through /v1 (a workspace API key). A member who is not
 * named hears nothing. The real app, devices saved through the notifications page against the
 * loopback push service, and the worker driven with runOnce.
 */

type DevicePush = { kind: string; title: string; url: string };
const payloadOf = (push: ReceivedPush) => push.payload as DevicePush;

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

/** A person with an account and one device that takes pushes. */
async function withDevice(): Promise<{ user: TestUser; device: string }> {
  const user = await createTestUser(server.database.db);
  const { cookie } = await signInTestUser(server.database.db, user.userId);
  return { user, device: await notifyThisDevice(server.url, cookie, push) };
}

/** The maker's workspace with three more members, each with a device: two to name, one not. */
async function team() {
  const maker = await withDevice();
  const members = await Promise.all([withDevice(), withDevice(), withDevice()]);
  for (const member of members) {
    await server.database.db
      .insert(memberships)
      .values({ id: newId('membership'), workspaceId: maker.user.workspaceId, userId: member.user.userId, role: 'member' });
  }
  const [ana, bo, unnamed] = members as [typeof maker, typeof maker, typeof maker];
  return { maker, ana, bo, unnamed };
}

/** Each named person's device got the Ask's link and question, once; the others nothing. */
async function expectTold(named: Array<{ device: string }>, others: Array<{ device: string }>, humanUrl: string, title: string) {
  expect(await worker.runOnce()).toBe(named.length);
  for (const { device } of named) {
    expect(push.received(device).map(payloadOf)).toMatchObject([{ kind: 'form', title, url: humanUrl }]);
  }
  for (const { device } of others) expect(push.received(device)).toEqual([]);
}

describe('an Ask with named respondents tells each of them', () => {
  it('through the hosted /mcp (a person’s connection): each named member, on their own device', async () => {
    const { maker, ana, bo, unnamed } = await team();
    const client = await connectSignedIn(server.url, maker.user);
    clients.push(client);
    const args = sampleAskArguments({ people: [ana.user.email, bo.user.email.toUpperCase()] });
    const result = await client.callTool({ name: 'sess_ask', arguments: args });
    const created = (result as { structuredContent: { interaction: { humanUrl: string; state: string } } }).structuredContent
      .interaction;
    recordSecret(created.humanUrl, 'link');
    expect(created.state).toBe('waiting');
    // The maker watches it (told when it closes), and is not sent the link.
    await expectTold([ana, bo], [maker, unnamed], created.humanUrl, args.question);
  });

  it('through /v1 (a workspace API key): each named member once, an idempotent replay tells no one again', async () => {
    const { maker, ana, bo, unnamed } = await team();
    const made = await createApiKey({
      ctx: { db: server.database.db, now: server.clock.now },
      input: { workspaceId: maker.user.workspaceId, name: 'headless agent', createdBy: maker.user.userId },
    });
    recordSecret(made.key, 'api-key');
    const args = sampleAskArguments({ people: [ana.user.email, bo.user.email] });
    const idempotencyKey = newId('session');
    const create = async () => {
      const response = await fetch(`${server.url}/v1/asks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(args),
      });
      const body = (await response.json()) as { humanUrl: string; assurance: string };
      if (body.humanUrl) recordSecret(body.humanUrl, 'link');
      return { status: response.status, body };
    };
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.body.assurance).toBe('account');
    expect(await create()).toEqual(first);
    await expectTold([ana, bo], [maker, unnamed], first.body.humanUrl, args.question);
    expect(await worker.runOnce()).toBe(0);
  });
});

/** `user`, signed in, starts their page of the Ask through its shared link and presses `action`; the post's status. */
async function startAndAnswer(askUrl: string, user: TestUser, action: string): Promise<number> {
  const { cookie } = await signInTestUser(server.database.db, user.userId, server.clock.now());
  const link = new URL(askUrl);
  const startPath = `${link.pathname}/start`;
  const form = findForm(await (await fetch(link, { headers: { cookie } })).text(), startPath);
  const started = await fetch(new URL(startPath, link), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: link.origin, cookie },
    body: new URLSearchParams(form.fields),
  });
  expect(started.status).toBe(303);
  return answerOnPage(new URL(started.headers.get('location')!, link).toString(), {}, action, cookie);
}

describe('an Ask with backup people (respondents.escalate) tells them at the escalation', () => {
  const deciding = (people: string[], backup: string) => ({
    question: 'Ship the release?',
    fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
    respondents: { people, decide: 'all', escalate: { after: 3600, to: [backup] } },
  });

  it('the named people at once, the backup once when the time comes and the Ask is still open', async () => {
    const { maker, ana, bo, unnamed: ben } = await team();
    const client = await connectSignedIn(server.url, maker.user);
    clients.push(client);
    const args = deciding([ana.user.email, bo.user.email], ben.user.email);
    const result = await client.callTool({ name: 'sess_ask', arguments: args });
    const created = (result as { structuredContent: { interaction: { humanUrl: string } } }).structuredContent.interaction;
    recordSecret(created.humanUrl, 'link');
    await expectTold([ana, bo], [maker, ben], created.humanUrl, args.question);

    server.clock.advance(3600 * 1000 - 1);
    expect(await worker.runOnce()).toBe(0);
    server.clock.advance(1);
    expect(await worker.runOnce()).toBe(1);
    expect(push.received(ben.device).map(payloadOf)).toMatchObject([
      { kind: 'form', title: args.question, url: created.humanUrl },
    ]);
    server.clock.advance(3600 * 1000);
    expect(await worker.runOnce()).toBe(0);
    expect(push.received(ben.device)).toHaveLength(1);
  });

  it('no one more when the Ask is decided before the escalation', async () => {
    const { maker, ana, bo, unnamed: ben } = await team();
    const client = await connectSignedIn(server.url, maker.user);
    clients.push(client);
    const args = { ...deciding([ana.user.email, bo.user.email], ben.user.email) };
    args.respondents.decide = 'any';
    const result = await client.callTool({ name: 'sess_ask', arguments: args });
    const created = (result as { structuredContent: { interaction: { humanUrl: string } } }).structuredContent.interaction;
    recordSecret(created.humanUrl, 'link');
    await expectTold([ana, bo], [maker, ben], created.humanUrl, args.question);
    // Ana answers Reject on her own page, signed in: "any" is decided.
    const page = await startAndAnswer(created.humanUrl, ana.user, 'reject');
    expect(page).toBe(303);
    server.clock.advance(3600 * 1000);
    await worker.runOnce();
    expect(push.received(ben.device)).toEqual([]);
  });
});
