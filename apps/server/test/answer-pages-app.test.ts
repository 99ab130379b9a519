import {
  createAsk,
  createFormsRuntime,
  createSession,
  type FormsRuntime,
  readAsk,
  readSession,
  startRespondent,
  submitLinkAnswer,
} from '@sess/forms';
import { createRemoteKeySet, verifyReceipt } from '@sess/receipts';
import { createTestLogger, createWorkspaceWithKey, recordSecret, sampleSurface, TEST_SECRET, tokenOf } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { callInteraction } from '@sess/testkit/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The answer pages in the whole app: what needs more than the pages' own routes (which
 * packages/service/answer-pages/test covers on their own). A receipt downloaded from a page verifies
 * against the keys the app publishes at /.well-known/jwks.json (the /v1 package's route), and the
 * app's request log names the route pattern, never a link token or a receipt. The agent's verbs
 * run on a forms runtime of the test's own, as another replica's would.
 */

let server: AppServer;
let runtime: FormsRuntime;
let workspaceId: string;

beforeAll(async () => {
  server = await startAppServer();
  runtime = createFormsRuntime({
    database: server.database,
    publicUrl: server.url,
    secret: TEST_SECRET,
    logger: createTestLogger(),
    now: server.clock.now,
  });
  workspaceId = (await createWorkspaceWithKey(server.database.db, { plan: 'pro' })).workspaceId;
});
afterAll(async () => {
  await runtime?.close();
  await server?.close();
});

const ctx = () => ({ runtime, workspaceId });
const get = (url: string) => fetch(url, { redirect: 'manual' });

/** Creates an interaction; returns its id, its token and its page (links are recorded for the log audit). */
async function createLink(interaction: unknown) {
  const created = await createSession({ ctx: ctx(), input: { interaction, expires_in: 3600 } });
  recordSecret(created.humanUrl, 'link');
  const token = tokenOf(created.humanUrl);
  return { sessionId: created.sessionId, token, pageUrl: `${server.url}/s/${token}` };
}

/** Verifies a receipt as someone outside Sess would: against the published JWKS, over HTTP, every claim pinned. */
function verifyAgainstJwks(
  jws: string,
  sessionId: string,
  held: { eventId: string; revision: number; surfaceSha256: string; answerSha256: string; respondentId?: string | undefined },
) {
  return verifyReceipt(jws, {
    keys: createRemoteKeySet(`${server.url}/.well-known/jwks.json`),
    issuer: server.url,
    expected: {
      workspaceId,
      sessionId,
      revision: held.revision,
      eventId: held.eventId,
      surfaceSha256: held.surfaceSha256,
      answerSha256: held.answerSha256,
      respondentId: held.respondentId ?? null,
    },
  });
}

describe('GET /s/:token/receipt in the whole app', () => {
  it('after an answer: the compact JWS alone, as a .jws attachment, never cached, verifying against the JWKS', async () => {
    const link = await createLink(callInteraction());
    await submitLinkAnswer(runtime, link.token, { revision: 1, actionId: 'send', submitted: { time: '1300' } });
    const response = await get(`${link.pageUrl}/receipt`);
    expect(response.status).toBe(200);
    const held = (await readSession({ ctx: ctx(), sessionId: link.sessionId })).response!;
    expect(response.headers.get('content-type')).toBe('application/jose');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="sess-receipt-${held.eventId}.jws"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const jws = await response.text();
    expect(jws).toBe(held.receipt);
    expect(jws).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const verified = await verifyAgainstJwks(jws, link.sessionId, held);
    expect(verified.ok).toBe(true);
  });

  it('an Ask: each respondent page offers its own receipt only; the shared link offers none', async () => {
    const created = await createAsk({
      ctx: ctx(),
      input: {
        question: 'Where should we go on Saturday?',
        fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains'] }],
        respondents: { max: 3 },
      },
    });
    recordSecret(created.humanUrl, 'link');
    const ask = {
      askId: created.askId,
      token: tokenOf(created.humanUrl),
      pageUrl: `${server.url}/s/${tokenOf(created.humanUrl)}`,
    };
    const people = await Promise.all([startRespondent(runtime, ask.token), startRespondent(runtime, ask.token)]);
    for (const person of people) recordSecret(person.respondentToken, 'link');
    await submitLinkAnswer(runtime, people[0].respondentToken, { revision: 1, submitted: { place: 'Beach' } });
    await submitLinkAnswer(runtime, people[1].respondentToken, { revision: 1, submitted: { place: 'Mountains' } });
    const answers = (await readAsk({ ctx: ctx(), askId: ask.askId })).answers;
    for (const [index, person] of people.entries()) {
      const page = await (await get(`${server.url}/s/${person.respondentToken}`)).text();
      const [mine, theirs] = index === 0 ? ['Beach', 'Mountains'] : ['Mountains', 'Beach'];
      expect(page).toContain(`<dd>${mine}</dd>`);
      expect(page).not.toContain(theirs === 'Beach' ? '<dd>Beach</dd>' : '<dd>Mountains</dd>');
      const jws = await (await get(`${server.url}/s/${person.respondentToken}/receipt`)).text();
      const held = answers.find((answer) => answer.receipt === jws);
      expect(held?.values).toEqual({ place: mine });
      const claims = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
      expect(claims.respondent_id).toBe(held?.respondentId);
      expect((await verifyAgainstJwks(jws, ask.askId, held!)).ok).toBe(true);
    }
    expect((await get(`${ask.pageUrl}/receipt`)).status).toBe(303);
  });
});

describe('the request log of the answer pages', () => {
  it('never carries a link token: requests are logged by route pattern', async () => {
    const link = await createLink({ ...sampleSurface(), description: 'The tests pass. Edit the message if you like.' });
    await get(link.pageUrl);
    await get(`${server.url}/s/${'C'.repeat(43)}`);
    const lines = server.rawLogs.filter((line) => line.includes('"http.request"'));
    expect(lines.some((line) => line.includes('"route":"/s/:token"'))).toBe(true);
    for (const line of server.rawLogs) {
      expect(line).not.toContain(link.token);
      expect(line).not.toContain('C'.repeat(43));
    }
  });

  it('no log line holds the link token or the receipt', async () => {
    const link = await createLink({ ...sampleSurface(), description: 'The tests pass. Edit the message if you like.' });
    await submitLinkAnswer(runtime, link.token, { revision: 1, actionId: 'stop', submitted: {} });
    const jws = await (await get(`${link.pageUrl}/receipt`)).text();
    const logs = server.rawLogs.join('\n');
    expect(logs).not.toContain(link.token);
    expect(logs).not.toContain(jws.split('.')[2]);
  });
});
