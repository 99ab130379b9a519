import { newId } from '@sess/core';
import { createFormsRuntime, createSession, type FormsRuntime, submitLinkAnswer } from '@sess/forms';
import { createPostgresHandleStore } from '@sess/hosted';
import type { HandleBinding } from '@sess/interactions';
import {
  createTestLogger,
  createTestUser,
  sampleSurface,
  signInTestUser,
  TEST_SECRET,
  type TestUser,
  tokenOf,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, startAppServer } from './support/app-server.ts';

/*
 * /account/interactions/<id>: the timeline of one form for the person it belongs to — their own
 * agents' forms, and in a workspace they own, the API keys' — in words, never the answers.
 */

let server: AppServer;
let runtime: FormsRuntime;
let person: TestUser;
let stranger: TestUser;
let cookie: string;

const get = (path: string, headers: Record<string, string> = { cookie }) =>
  fetch(new URL(path, server.url), { headers, redirect: 'manual' });

function binding(workspaceId: string, principalId: string): HandleBinding {
  return {
    origin: 'http://sess.test',
    workspaceId,
    principalId,
    clientId: newId('oauthClient'),
    grantId: newId('oauthGrant'),
    grantGeneration: 1,
  };
}

async function madeByAgentOf(principalId: string) {
  const created = await createSession({
    ctx: { runtime, workspaceId: person.workspaceId },
    input: { interaction: sampleSurface() },
  });
  const at = new Date().toISOString();
  const store = createPostgresHandleStore({ db: server.database.db, secret: TEST_SECRET });
  await store.bind(binding(person.workspaceId, principalId)).insert({
    ...binding(person.workspaceId, principalId),
    handle: newId('handle'),
    kind: 'interaction',
    state: 'waiting',
    version: 1,
    revision: 1,
    title: 'A question',
    createdAt: at,
    updatedAt: at,
    sessionId: created.sessionId,
  });
  return created;
}

beforeAll(async () => {
  server = await startAppServer();
  const db = server.database.db;
  person = await createTestUser(db);
  stranger = await createTestUser(db);
  cookie = (await signInTestUser(db, person.userId, server.clock.now())).cookie;
  runtime = createFormsRuntime({
    database: server.database,
    publicUrl: server.url,
    secret: TEST_SECRET,
    logger: createTestLogger(),
  });
});
afterAll(async () => {
  await runtime?.close();
  await server?.close();
});

describe('/account/interactions/<id>', () => {
  it('shows an API-key form’s events to its workspace’s owner, in words, without the answer', async () => {
    const created = await createSession({
      ctx: { runtime, workspaceId: person.workspaceId },
      input: { interaction: sampleSurface('Ship the release?') },
    });
    // A link preview (no Sec-Fetch-Dest) is not the person opening it; the browser's navigation is.
    expect((await get(`/s/${tokenOf(created.humanUrl)}`, {})).status).toBe(200);
    expect((await get(`/s/${tokenOf(created.humanUrl)}`, { 'sec-fetch-dest': 'document' })).status).toBe(200);
    const answered = await submitLinkAnswer(runtime, tokenOf(created.humanUrl), {
      revision: 1,
      actionId: 'approve',
      submitted: { message: 'Quietly approved' },
    });
    expect(answered.ok).toBe(true);

    const response = await get(`/account/interactions/${created.sessionId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    expect(html).toContain('Ship the release?');
    const entries = [...html.matchAll(/<li><time[^>]*>[^<]*<\/time> ([^<]*)<\/li>/g)].map((m) => m[1]);
    expect(entries).toEqual(['Created', 'Opened in a browser', 'Answered, with the link']);
    expect(html).not.toContain('Quietly approved');
    expect(html).not.toContain(tokenOf(created.humanUrl));
  });

  it('shows a form the person’s own agent made, and not another person’s agent’s in a workspace they own', async () => {
    const own = await madeByAgentOf(person.userId);
    expect((await get(`/account/interactions/${own.sessionId}`)).status).toBe(200);
    const someoneElses = await madeByAgentOf(stranger.userId);
    expect((await get(`/account/interactions/${someoneElses.sessionId}`)).status).toBe(404);
  });

  it('lists the person’s recent forms on /account/interactions, each linked to its timeline, and no one else’s', async () => {
    const mine = await createSession({
      ctx: { runtime, workspaceId: person.workspaceId },
      input: { interaction: sampleSurface('Recent and mine') },
    });
    const theirs = await createSession({
      ctx: { runtime, workspaceId: stranger.workspaceId },
      input: { interaction: sampleSurface('Recent and not mine') },
    });
    const html = await (await get('/account/interactions')).text();
    expect(html).toContain(`href="/account/interactions/${mine.sessionId}"`);
    expect(html).toContain('Recent and mine');
    expect(html).not.toContain(theirs.sessionId);
    expect(html).not.toContain('Recent and not mine');
  });

  it('is not found for another workspace’s form or an unknown id, and asks a visitor to sign in', async () => {
    const theirs = await createSession({
      ctx: { runtime, workspaceId: stranger.workspaceId },
      input: { interaction: sampleSurface() },
    });
    expect((await get(`/account/interactions/${theirs.sessionId}`)).status).toBe(404);
    expect((await get('/account/interactions/ses_nothinghere')).status).toBe(404);
    const visitor = await get(`/account/interactions/${theirs.sessionId}`, {});
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get('location')).toBe(
      `/signin?return_to=${encodeURIComponent(`/account/interactions/${theirs.sessionId}`)}`,
    );
  });
});
