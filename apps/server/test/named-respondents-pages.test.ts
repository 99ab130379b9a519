/*
 * Named respondents on the real app: an Ask for two members (respondents.people) has ONE shared
 * link; each named person, signed in, starts and answers their OWN page through it, and coming
 * back (any browser) lands on that same page, never a second place. Without a sign-in the link
 * goes to the sign-in page and back; a third member and a member of another workspace get "This
 * form is for someone else" (403) with nothing written; one named person cannot open or answer
 * the other's page. No page shows anyone's e-mail.
 */
import { formAnswers, queryRows } from '@sess/db';
import { readAsk, respondentOf } from '@sess/forms';
import { createUser, createWorkspace, findForm, sampleAskArguments, signInTestUser } from '@sess/testkit';
import { createAskLink, type PagesHarness, startPagesHarness } from '@sess/testkit/pages';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Person {
  userId: string;
  email: string;
  cookie: string;
}

let h: PagesHarness;
let ana: Person;
let bo: Person;
let cy: Person;
let outsider: Person;

async function person(workspaceId: string): Promise<Person> {
  const user = await createUser(h.database.db, { workspaceId });
  return { ...user, cookie: (await signInTestUser(h.database.db, user.userId, h.now())).cookie };
}

beforeAll(async () => {
  h = await startPagesHarness();
  ana = await person(h.ctx.workspaceId);
  bo = await person(h.ctx.workspaceId);
  cy = await person(h.ctx.workspaceId);
  outsider = await person((await createWorkspace(h.database.db)).workspaceId);
});
afterAll(async () => {
  await h?.close();
});

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });

function post(url: string, fields: Record<string, string>, cookie?: string) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

/** What the Ask holds: its respondent pages and answers. */
async function written(askId: string) {
  const [row] = await queryRows<{ respondents: number; answers: number }>(
    h.database.db,
    sql`select (select count(*)::int from ask_respondents where session_id = ${askId}) as respondents,
               (select count(*)::int from form_answers where session_id = ${askId}) as answers`,
  );
  return row;
}

/** `who` presses Start on the shared link: where it sends them. */
async function start(ask: { token: string; pageUrl: string }, who: Person): Promise<Response> {
  const landing = await get(ask.pageUrl, who.cookie);
  expect(landing.status).toBe(200);
  const html = await landing.text();
  for (const someone of [ana, bo, cy]) expect(html).not.toContain(someone.email);
  const form = findForm(html, `/s/${ask.token}/start`);
  return post(`${ask.pageUrl}/start`, form.fields, who.cookie);
}

describe('an Ask for two named members, through its one shared link', () => {
  it('gives each their own page, the same one when they come back; nobody else starts or answers', async () => {
    const ask = await createAskLink(h, sampleAskArguments({ people: [ana.email.toUpperCase(), bo.email] }));

    // Not signed in: the sign-in page, back to the link.
    const anonymous = await get(ask.pageUrl);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/signin?return_to=${encodeURIComponent(`/s/${ask.token}`)}`);

    const anaStarted = await start(ask, ana);
    expect(anaStarted.status).toBe(303);
    const anaPage = anaStarted.headers.get('location')!;
    expect(anaPage).toMatch(/^\/s\/r[A-Za-z0-9_-]{43}$/);
    // Found by the account, not by a cookie another account on this browser would share.
    expect(anaStarted.headers.get('set-cookie') ?? '').not.toContain('sess_respondent');

    // Coming back: the shared link (any browser of hers) and Start again both land on the same page.
    const back = await get(ask.pageUrl, ana.cookie);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(anaPage);
    const formFromAnotherTab = findForm(await (await get(ask.pageUrl, bo.cookie)).text(), `/s/${ask.token}/start`);
    const again = await post(`${ask.pageUrl}/start`, formFromAnotherTab.fields, ana.cookie);
    expect(again.headers.get('location')).toBe(anaPage);

    const boStarted = await start(ask, bo);
    const boPage = boStarted.headers.get('location')!;
    expect(boPage).toMatch(/^\/s\/r[A-Za-z0-9_-]{43}$/);
    expect(boPage).not.toBe(anaPage);
    expect(await written(ask.askId)).toEqual({ respondents: 2, answers: 0 });

    // A third member and a stranger: "for someone else", on the link and on Start; nothing written.
    const csrf = formFromAnotherTab.fields;
    for (const other of [cy, outsider]) {
      const page = await get(ask.pageUrl, other.cookie);
      expect(page.status).toBe(403);
      expect(await page.text()).toContain('This form is for someone else');
      expect((await post(`${ask.pageUrl}/start`, csrf, other.cookie)).status).toBe(403);
    }
    // Not signed in, Start goes to sign in.
    const anonymousStart = await post(`${ask.pageUrl}/start`, csrf);
    expect(anonymousStart.status).toBe(303);
    expect(anonymousStart.headers.get('location')).toMatch(/^\/signin\?return_to=/);
    expect(await written(ask.askId)).toEqual({ respondents: 2, answers: 0 });

    // One named person cannot open or answer the other's page.
    const anaHtml = await (await get(`${h.url}${anaPage}`, ana.cookie)).text();
    expect(anaHtml).toContain('Where to?');
    for (const someone of [ana, bo, cy]) expect(anaHtml).not.toContain(someone.email);
    const anaForm = { ...findForm(anaHtml, anaPage).fields, place: 'Beach' };
    const peek = await get(`${h.url}${anaPage}`, bo.cookie);
    expect(peek.status).toBe(403);
    expect(await peek.text()).toContain('This form is for someone else');
    expect((await post(`${h.url}${anaPage}`, anaForm, bo.cookie)).status).toBe(403);
    expect((await post(`${h.url}${anaPage}`, anaForm)).status).toBe(303);
    expect(await written(ask.askId)).toEqual({ respondents: 2, answers: 0 });

    // Each answers their own page.
    expect((await post(`${h.url}${anaPage}`, anaForm, ana.cookie)).status).toBe(303);
    const boHtml = await (await get(`${h.url}${boPage}`, bo.cookie)).text();
    expect((await post(`${h.url}${boPage}`, { ...findForm(boHtml, boPage).fields, place: 'City' }, bo.cookie)).status).toBe(303);
    const stored = await h.database.db
      .select({ assurance: formAnswers.assurance, by: formAnswers.answeredByUserId })
      .from(formAnswers)
      .where(eq(formAnswers.sessionId, ask.askId));
    expect(stored.map((row) => row.by).sort()).toEqual([ana.userId, bo.userId].sort());
    expect(stored.every((row) => row.assurance === 'account')).toBe(true);

    const read = await readAsk({ ctx: h.ctx, askId: ask.askId });
    expect(read).toMatchObject({ state: 'closed', counts: { started: 2, answered: 2, max: 2 } });
    expect(read.answers.map((answer) => answer.respondent).sort()).toEqual(
      [
        respondentOf(h.runtime.secret, h.ctx.workspaceId, ana.userId),
        respondentOf(h.runtime.secret, h.ctx.workspaceId, bo.userId),
      ].sort(),
    );

    // After answering, the link still brings her back to her own (completed) page.
    const done = await get(ask.pageUrl, ana.cookie);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(anaPage);
  });
});
