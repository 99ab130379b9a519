/*
 * The receipt download behind a link (`GET /s/:token/receipt`) over real HTTP: the file, its
 * headers, when it is offered, and that it is this link's answer and no one else's.
 */
import { readAsk, readSession, startRespondent, submitLinkAnswer } from '@sess/forms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callInteraction,
  commitInteraction,
  completeLink,
  createAskLink,
  createLink,
  type PagesHarness,
  publishNext,
  pushInteraction,
  startPagesHarness,
  verifyAgainstJwks,
  withdrawSession,
} from './pages-harness.ts';

let h: PagesHarness;
beforeAll(async () => {
  h = await startPagesHarness();
});
afterAll(async () => {
  await h?.close();
});

const get = (url: string) => fetch(url, { redirect: 'manual' });

/** The claims of a compact JWS, read without verifying (what the file says about itself). */
function claimsOf(jws: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('GET /s/:token/receipt', () => {
  it('after an answer: the compact JWS alone, as a .jws attachment, never cached, verifying against the JWKS', async () => {
    const link = await createLink(h, callInteraction());
    await submitLinkAnswer(h.runtime, link.token, { revision: 1, actionId: 'send', submitted: { time: '1300' } });
    const response = await get(`${link.pageUrl}/receipt`);
    expect(response.status).toBe(200);
    const held = (await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response!;
    expect(response.headers.get('content-type')).toBe('application/jose');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="sess-receipt-${held.eventId}.jws"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const jws = await response.text();
    expect(jws).toBe(held.receipt);
    expect(jws).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const verified = await verifyAgainstJwks(h, jws, link.sessionId, held);
    expect(verified.ok).toBe(true);
  });

  it('the page links it on Sent and on Done; after a complete the file is still there', async () => {
    const link = await createLink(h, commitInteraction());
    await submitLinkAnswer(h.runtime, link.token, { revision: 1, actionId: 'stop', submitted: {} });
    expect(await (await get(link.pageUrl)).text()).toContain(`href="/s/${link.token}/receipt" download=""`);
    await completeLink(h, link.sessionId);
    const done = await (await get(link.pageUrl)).text();
    expect(done).toContain('Done</h1>');
    expect(done).toContain('<dt>You chose</dt><dd>Stop</dd>');
    expect(done).toContain(`href="/s/${link.token}/receipt"`);
    expect((await get(`${link.pageUrl}/receipt`)).status).toBe(200);
  });

  it('with nothing to download (open, a new step published, withdrawn) it sends the person to the page', async () => {
    const link = await createLink(h, commitInteraction());
    for (const step of ['open', 'published', 'withdrawn'] as const) {
      if (step === 'published') {
        await submitLinkAnswer(h.runtime, link.token, { revision: 1, actionId: 'approve', submitted: { message: 'm' } });
        await publishNext(h, link.sessionId, pushInteraction());
      }
      if (step === 'withdrawn') await withdrawSession({ ctx: h.ctx, sessionId: link.sessionId });
      const response = await get(`${link.pageUrl}/receipt`);
      expect(response.status, step).toBe(303);
      expect(response.headers.get('location')).toBe(`/s/${link.token}`);
    }
  });

  it('an unknown or malformed token is the plain 404 page', async () => {
    for (const token of ['D'.repeat(43), 'not-a-token']) {
      const response = await get(`${h.url}/s/${token}/receipt`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('There is nothing here');
    }
  });

  it('an Ask: each respondent page offers its own receipt only; the shared link offers none', async () => {
    const ask = await createAskLink(h, {
      question: 'Where should we go on Saturday?',
      fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains'] }],
      respondents: { max: 3 },
    });
    const people = await Promise.all([startRespondent(h.runtime, ask.token), startRespondent(h.runtime, ask.token)]);
    await submitLinkAnswer(h.runtime, people[0].respondentToken, { revision: 1, submitted: { place: 'Beach' } });
    await submitLinkAnswer(h.runtime, people[1].respondentToken, { revision: 1, submitted: { place: 'Mountains' } });
    const answers = (await readAsk({ ctx: h.ctx, askId: ask.askId })).answers;
    for (const [index, person] of people.entries()) {
      const page = await (await get(`${h.url}/s/${person.respondentToken}`)).text();
      const [mine, theirs] = index === 0 ? ['Beach', 'Mountains'] : ['Mountains', 'Beach'];
      expect(page).toContain(`<dd>${mine}</dd>`);
      expect(page).not.toContain(theirs === 'Beach' ? '<dd>Beach</dd>' : '<dd>Mountains</dd>');
      const jws = await (await get(`${h.url}/s/${person.respondentToken}/receipt`)).text();
      const held = answers.find((answer) => answer.receipt === jws);
      expect(held?.values).toEqual({ place: mine });
      expect(claimsOf(jws).respondent_id).toBe(held?.respondentId);
      expect((await verifyAgainstJwks(h, jws, ask.askId, held!)).ok).toBe(true);
    }
    expect((await get(`${ask.pageUrl}/receipt`)).status).toBe(303);
  });

  it('no log line holds the link token or the receipt', async () => {
    const link = await createLink(h, commitInteraction());
    await submitLinkAnswer(h.runtime, link.token, { revision: 1, actionId: 'stop', submitted: {} });
    const jws = await (await get(`${link.pageUrl}/receipt`)).text();
    const logs = h.logs.join('\n');
    expect(logs).not.toContain(link.token);
    expect(logs).not.toContain(jws.split('.')[2]);
  });
});
