/*
 * The receipt download behind a link (`GET /s/:token/receipt`) over real HTTP: the file, its
 * headers, when it is offered, and that it is this link's answer and no one else's. On this
 * package's routes alone; that the file verifies against the published JWKS, and that no log line
 * of the app holds it, is apps/server/test/answer-pages-app.test.ts.
 */
import { submitLinkAnswer } from '@sess/forms';
import {
  commitInteraction,
  completeLink,
  createLink,
  type PagesHarness,
  publishNext,
  pushInteraction,
  startPagesHarness,
  withdrawSession,
} from '@sess/testkit/pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let h: PagesHarness;
beforeAll(async () => {
  h = await startPagesHarness({ serve: 'pages' });
});
afterAll(async () => {
  await h?.close();
});

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('GET /s/:token/receipt', () => {
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
});
