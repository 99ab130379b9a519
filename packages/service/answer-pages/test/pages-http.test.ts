import { readSession } from '@sess/forms';
import {
  answerEvent,
  commitInteraction,
  completeLink,
  createAskLink,
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

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });

function post(url: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
}

/** The hidden inputs of the first form on a page. */
function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(_[a-z]+)" value="([^"]*)"\/>/g)) {
    fields[match[1]!] ??= match[2]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  }
  return fields;
}

async function openForm(pageUrl: string) {
  const response = await get(pageUrl);
  const html = await response.text();
  return { response, html, hidden: hiddenFields(html) };
}

function expectPageHeaders(response: Response) {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'none'");
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-robots-tag')).toContain('noindex');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
}

describe('GET /s/:token', () => {
  it('renders the open form with the page headers and a CSRF token', async () => {
    const link = await createLink(h, commitInteraction());
    const { response, html, hidden } = await openForm(link.pageUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expectPageHeaders(response);
    expect(html).toContain('<h1>Approve this commit?</h1>');
    expect(html).toContain(`<form method="post" action="/s/${link.token}">`);
    expect(hidden._revision).toBe('1');
    expect(hidden._csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The form works without script; its one script (under the nonce) only follows the session.
    const nonce = /script-src 'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${nonce}">`);
    // "Answer on your phone" carries the link the agent was given (PUBLIC_URL here, not this request's host).
    expect(html).toContain(`<a href="${h.publicUrl}/s/${link.token}" dir="ltr">${h.publicUrl}/s/${link.token}</a>`);
  });

  it('answers an unknown or malformed token with a plain 404 page that names nothing', async () => {
    for (const token of ['A'.repeat(43), 'r'.repeat(44), 'not-a-token', '%3Cscript%3E']) {
      const response = await get(`${h.url}/s/${token}`);
      expect(response.status).toBe(404);
      expectPageHeaders(response);
      const html = await response.text();
      expect(html).toContain('There is nothing here');
      expect(html).not.toContain(token);
      expect(html).not.toContain('<form');
    }
  });

  it('escapes hostile strings from the agent end to end', async () => {
    const hostile = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const interaction = {
      mode: 'interactive',
      title: '<script>alert(1)</script>',
      description: 'javascript:alert(1)',
      source: {
        kind: 'sess_surface',
        components: [
          { type: 'record', label: hostile, fields: { '<b>key</b>': hostile } },
          { type: 'field', name: 'f', label: hostile, description: hostile, schema: { type: 'string' }, value: hostile },
          {
            type: 'field',
            name: 'c',
            label: 'Pick',
            schema: { type: 'string', enum: ['a', 'b'], option_labels: [hostile, 'javascript:alert(1)'] },
          },
        ],
      },
      actions: [{ id: 'go', label: '<i>Go</i>', intent: 'approve' }],
    };
    const link = await createLink(h, interaction);
    // The page's own constant follow script (under the nonce) is the one script; nothing the agent sent is markup.
    const html = (await (await get(link.pageUrl)).text()).replace(/<script nonce="[^"]+">[\s\S]*?<\/script>/, '');
    expect(html).not.toMatch(/<(img|script|i|b)[\s>]/i);
    expect(html).not.toMatch(/href="\s*javascript:/i);
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
  });
});

describe('POST /s/:token (answer)', () => {
  it('accepts an answer, redirects to the page, which then says "Sent — waiting" with the one nonce’d script', async () => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    const response = await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'Edited message' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/s/${link.token}`);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const answer = await answerEvent(h, link.sessionId);
    expect(answer).toMatchObject({ actionId: 'approve', values: { message: 'Edited message' } });

    const page = await get(link.pageUrl);
    const html = await page.text();
    expect(html).toContain('Sent — waiting for the next step');
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${nonce}">`);
  });

  it('refuses a post without the CSRF token, and records nothing', async () => {
    const link = await createLink(h, commitInteraction());
    const response = await post(link.pageUrl, { _revision: '1', _action: 'approve', message: 'x' });
    expect(response.status).toBe(403);
    expectPageHeaders(response);
    expect(await response.text()).toContain('This page was out of date');
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toBeNull();
  });

  it('refuses a CSRF token of another link, of another revision, or from a cross-site post', async () => {
    const link = await createLink(h, commitInteraction());
    const other = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    const { hidden: otherHidden } = await openForm(other.pageUrl);
    const cases = [
      post(link.pageUrl, { ...otherHidden, _action: 'approve', message: 'x' }),
      post(link.pageUrl, { ...hidden, _revision: '2', _action: 'approve', message: 'x' }),
      // A token with its last character changed (to one it cannot already be).
      post(link.pageUrl, {
        ...hidden,
        _csrf: `${hidden._csrf?.slice(0, -1)}${hidden._csrf?.endsWith('A') ? 'B' : 'A'}`,
        _action: 'approve',
        message: 'x',
      }),
      post(link.pageUrl, { ...hidden, _action: 'approve', message: 'x' }, { 'sec-fetch-site': 'cross-site' }),
    ];
    for (const response of await Promise.all(cases)) expect(response.status).toBe(403);
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toBeNull();
  });

  it('refuses a body that is not a form post (415) or too large (413)', async () => {
    const link = await createLink(h, commitInteraction());
    const json = await fetch(link.pageUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'x' }),
    });
    expect(json.status).toBe(415);
    const { hidden } = await openForm(link.pageUrl);
    const big = await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'x'.repeat(1_100_000) });
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('That was too much to send');
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toBeNull();
  });

  it('re-renders a refused answer with the person’s values and inline errors (422)', async () => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    const response = await post(link.pageUrl, { ...hidden, _action: 'approve', message: '', extra: '<b>x</b>' });
    expect(response.status).toBe(422);
    expectPageHeaders(response);
    const html = await response.text();
    expect(html).toContain('There is a problem');
    expect(html).toContain('<a href="#f-message">Commit message: Answer this to continue.</a>');
    expect(html).toContain('aria-describedby="f-message-error" aria-invalid="true"');
    expect(html).toContain('<li>This form has no such field. Reload the page and try again.</li>');
    expect(html).toMatch(/<textarea id="f-message"[^>]*>\n<\/textarea>/);
    expect(hiddenFields(html)._csrf).toBe(hidden._csrf);
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toBeNull();
  });

  it.each(['__proto__', 'constructor', 'prototype', '_other'])(
    'refuses a posted field named %s as a field the form does not have (422), and stores nothing',
    async (name) => {
      const link = await createLink(h, commitInteraction());
      const { hidden } = await openForm(link.pageUrl);
      const response = await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'Ship it', [name]: 'x' });
      expect(response.status).toBe(422);
      expect(await response.text()).toContain('<li>This form has no such field. Reload the page and try again.</li>');
      expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toBeNull();
    },
  );

  it.each([
    ['NUL', '\u0000', 'U+0000'],
    ['ESC', '\u001B', 'U+001B'],
    ['a noncharacter', '\uFFFF', 'U+FFFF'],
  ])('refuses an answer holding %s with an inline error (422), never a 500, and stores nothing', async (_, bad, label) => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    const response = await post(link.pageUrl, { ...hidden, _action: 'approve', message: `Ship${bad} it` });
    expect(response.status).toBe(422);
    const html = await response.text();
    expect(html).toContain(`(${label}) at character 5. Remove it and send again.`);
    expect(html).toContain('aria-describedby="f-message-error" aria-invalid="true"');
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toBeNull();
  });

  it('lets a reject button leave a required field empty', async () => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    expect((await post(link.pageUrl, { ...hidden, _action: 'stop', message: '' })).status).toBe(303);
    expect(await answerEvent(h, link.sessionId)).toMatchObject({ actionId: 'stop', values: {} });
  });

  it('keeps the first of two submits: the second is told the question already has an answer', async () => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    const first = await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'first' });
    expect(first.status).toBe(303);
    const second = await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'second' });
    expect(second.status).toBe(409);
    const html = await second.text();
    // One message: already answered, the first one kept (no "Sent" under a contradicting banner).
    expect(html).toContain('Already answered — waiting for the next step');
    expect(html).toContain('the first answer sent is the one kept');
    expect(html).not.toContain('Sent —');
    expect(html).toContain('<h2 id="own-answer-heading">The answer kept</h2>');
    expect(html).toContain('<dd>first</dd>');
    expect(html).not.toContain('<dd>second</dd>');
    expect((await answerEvent(h, link.sessionId)).values).toEqual({ message: 'first' });
  });

  it('lets exactly one of two concurrent submits win', async () => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    const responses = await Promise.all(
      ['a', 'b', 'c'].map((message) => post(link.pageUrl, { ...hidden, _action: 'approve', message })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([303, 409, 409]);
  });
});

describe('following the session', () => {
  it('shows the next form after a publish, and Done after a complete', async () => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'm' });

    const parked = fetch(`${link.pageUrl}/wait?state=answered&revision=1`).then((r) => r.json());
    await publishNext(h, link.sessionId, pushInteraction());
    expect(await parked).toEqual({ state: 'open', revision: 2 });

    const next = await openForm(link.pageUrl);
    expect(next.html).toContain('<h1>Push to main now?</h1>');
    expect(next.hidden._revision).toBe('2');
    // The revision-1 form cannot answer revision 2.
    expect((await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'late' })).status).toBe(409);
    expect((await post(link.pageUrl, { ...next.hidden, _action: 'push', when: 'tonight' })).status).toBe(303);

    const waiting = fetch(`${link.pageUrl}/wait?state=answered&revision=2`).then((r) => r.json());
    await completeLink(h, link.sessionId);
    expect(await waiting).toEqual({ state: 'completed', revision: 2 });
    const done = await (await get(link.pageUrl)).text();
    expect(done).toContain('Done</h1>');
    expect(done).not.toContain('<form');
  });

  it('wait: refuses a bad revision (400), an unknown link (404), and carries the page headers', async () => {
    const link = await createLink(h, commitInteraction());
    const bad = await get(`${link.pageUrl}/wait?revision=zero`);
    expect(bad.status).toBe(400);
    expectPageHeaders(bad);
    expect((await get(`${link.pageUrl}/wait?revision=1&state=nonsense`)).status).toBe(400);
    const unknown = await get(`${h.url}/s/${'B'.repeat(43)}/wait?revision=1`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    // Already different from what the page shows: answers at once.
    expect(await (await get(`${link.pageUrl}/wait?revision=1&state=answered`)).json()).toEqual({ state: 'open', revision: 1 });
  });

  it('says the question was withdrawn, and refuses a late answer with 410', async () => {
    const link = await createLink(h, commitInteraction());
    const { hidden } = await openForm(link.pageUrl);
    await withdrawSession({ ctx: h.ctx, sessionId: link.sessionId });
    expect(await (await get(link.pageUrl)).text()).toContain('The question was withdrawn');
    const late = await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'm' });
    expect(late.status).toBe(410);
    const html = await late.text();
    expect(html).toContain('Your answer was not sent.');
    expect(html).toContain('The question was withdrawn');
  });
});

describe('time', () => {
  it('lapsed: offers "Ask for more time", which needs its CSRF token and opens the form again', async () => {
    const link = await createLink(h, commitInteraction(), 600);
    const { hidden } = await openForm(link.pageUrl);
    h.advance(601_000);
    const lapsed = await openForm(link.pageUrl);
    expect(lapsed.html).toContain('The time to answer ran out');
    expect(lapsed.html).toContain(`action="/s/${link.token}/extend"`);
    expect((await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'm' })).status).toBe(410);
    expect((await post(`${link.pageUrl}/extend`, {})).status).toBe(403);
    expect((await post(`${link.pageUrl}/extend`, { _csrf: hidden._csrf ?? '' })).status).toBe(403);
    const extended = await post(`${link.pageUrl}/extend`, lapsed.hidden);
    expect(extended.status).toBe(303);
    const reopened = await openForm(link.pageUrl);
    expect(reopened.html).toContain('<h1>Approve this commit?</h1>');
    expect((await post(link.pageUrl, { ...reopened.hidden, _action: 'approve', message: 'm' })).status).toBe(303);
  });

  it('expired: past the horizon the page is closed for good, and a post is refused', async () => {
    const link = await createLink(h, commitInteraction(), 600);
    const { hidden } = await openForm(link.pageUrl);
    h.advance(8 * 86_400_000);
    const page = await openForm(link.pageUrl);
    expect(page.html).toContain('This link has closed');
    expect(page.html).not.toContain('<form');
    expect((await post(link.pageUrl, { ...hidden, _action: 'approve', message: 'm' })).status).toBe(410);
  });

  it('a link of more than 20 hours is not extendable: past its end it is expired at once', async () => {
    const link = await createLink(h, commitInteraction(), 21 * 3600);
    h.advance(21 * 3600_000 + 1000);
    expect(await (await get(link.pageUrl)).text()).toContain('This link has closed');
  });
});

describe('Asks', () => {
  const askArgs = (max: number) => ({
    question: 'Where should we go on Saturday?',
    fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] }],
    submit_label: 'Plan it',
    respondents: { max, name: true },
  });

  it('Start gives this browser its own page (cookie scoped to the Ask), which completes on its own answer', async () => {
    const ask = await createAskLink(h, askArgs(2));
    const landing = await openForm(ask.pageUrl);
    expect(landing.html).toContain('<h1>Where should we go on Saturday?</h1>');
    expect(landing.html).toContain('>Start</button>');
    expect((await post(`${ask.pageUrl}/start`, {})).status).toBe(403);

    const started = await post(`${ask.pageUrl}/start`, landing.hidden);
    expect(started.status).toBe(303);
    const own = started.headers.get('location') ?? '';
    expect(own).toMatch(/^\/s\/r[A-Za-z0-9_-]{43}$/);
    const cookie = started.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^sess_respondent=r[A-Za-z0-9_-]{43}; .*Path=/s/${ask.token}`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');

    // The same browser coming back to the shared link goes to its own page.
    const back = await get(ask.pageUrl, { cookie: cookie.split(';')[0]! });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(own);

    const form = await openForm(`${h.url}${own}`);
    expect(form.html).toContain('<label for="f-respondent_name">Your name');
    expect(form.html).toContain('value="submit" class="primary">Plan it</button>');
    const answered = await post(`${h.url}${own}`, { ...form.hidden, respondent_name: 'Ada', place: 'Beach' });
    expect(answered.status).toBe(303);
    const done = await (await get(`${h.url}${own}`)).text();
    expect(done).toContain('Done</h1>');
  });

  it('refuses a start once every place is taken (409), with the reason on the page', async () => {
    const ask = await createAskLink(h, askArgs(1));
    const landing = await openForm(ask.pageUrl);
    expect((await post(`${ask.pageUrl}/start`, landing.hidden)).status).toBe(303);
    const second = await post(`${ask.pageUrl}/start`, landing.hidden);
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(html).toContain('Every place is taken right now.');
    expect(html).not.toContain('>Start</button>');
  });

  it('the shared link takes no answer itself', async () => {
    const ask = await createAskLink(h, askArgs(2));
    const landing = await openForm(ask.pageUrl);
    const response = await post(ask.pageUrl, { _csrf: landing.hidden._csrf ?? '', _revision: '1', place: 'Beach' });
    expect(response.status).toBe(403); // a start token is not an answer token
  });
});
