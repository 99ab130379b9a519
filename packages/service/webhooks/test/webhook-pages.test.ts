import { inputValue, recordSecret, signUpThroughPages, type TestBrowser } from '@sess/testkit';
import { type AppServer, startAppServer } from '@sess/testkit/app-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: AppServer;
let browser: TestBrowser;

beforeAll(async () => {
  app = await startAppServer();
  browser = await signUpThroughPages(app.url, 'hooks-owner@test.sess.invalid', 'a long enough password 1');
});
afterAll(async () => {
  await app.close();
});

/** The page's CSRF token and the first workspace it offers. */
function formOf(html: string) {
  const csrf = inputValue(html, '_csrf', html.indexOf('action="/account/webhooks"'))!;
  const workspaceId = /<option value="(ws_[a-z2-7]{26})"/.exec(html)?.[1] ?? '';
  return { csrf, workspaceId };
}

describe('/account/webhooks', () => {
  it('an owner adds an endpoint (its secret shown once), sends a test event, sees the log, rotates and removes it', async () => {
    const page = await browser.get('/account/webhooks');
    expect(page.status).toBe(200);
    const { csrf, workspaceId } = formOf(page.html);
    expect(workspaceId).not.toBe('');

    const added = await browser.post('/account/webhooks', {
      _csrf: csrf,
      workspace_id: workspaceId,
      url: 'http://127.0.0.1:9/hooks/sess',
      event_types: 'answered',
    });
    expect(added.status).toBe(201);
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(added.html)?.[0];
    expect(secret).toBeDefined();
    recordSecret(secret!, 'response-secret');
    const id = /\/account\/webhooks\/(whe_[a-z2-7]{26})\/test/.exec(added.html)?.[1];
    expect(id).toBeDefined();

    const again = await browser.get('/account/webhooks');
    expect(again.html).not.toContain(secret!);
    expect(again.html).toContain('answered');

    const tested = await browser.post(`/account/webhooks/${id}/test`, { _csrf: csrf });
    expect(tested.status).toBe(200);
    expect(tested.html).toContain('Test event queued');
    expect(tested.html).toContain('Delivery log (1)');

    const rotated = await browser.post(`/account/webhooks/${id}/rotate`, { _csrf: csrf });
    const next = /whsec_[A-Za-z0-9+/=]+/.exec(rotated.html)?.[0];
    recordSecret(next!, 'response-secret');
    expect(next).not.toBe(secret);
    expect(rotated.html).toContain('The old secret signs too until');

    const removed = await browser.post(`/account/webhooks/${id}/remove`, { _csrf: csrf });
    expect(removed.html).toContain('Endpoint removed.');
    expect(removed.html).not.toContain(id!);
  });

  it('refuses a private address with a sentence, a forged post, and a signed-out visitor', async () => {
    const page = await browser.get('/account/webhooks');
    const { csrf, workspaceId } = formOf(page.html);
    const refused = await browser.post('/account/webhooks', {
      _csrf: csrf,
      workspace_id: workspaceId,
      url: 'http://10.0.0.7/hook',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('must name a public host');
    const forged = await browser.post('/account/webhooks', {
      _csrf: 'forged',
      workspace_id: workspaceId,
      url: 'http://127.0.0.1:9/x',
    });
    expect(forged.status).toBe(403);
    const anonymous = await fetch(`${app.url}/account/webhooks`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
  });
});
