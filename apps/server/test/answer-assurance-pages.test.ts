/*
 * An `account` form on the real app (issue 37): only a browser signed in as the account the form
 * is for opens and answers it. The agent fetching its own link (no cookie) gets the sign-in page
 * and answers nothing, even with a valid CSRF token of the form; another member gets "This form
 * is for someone else" (403) and changes nothing; the person signs in through the sign-in page
 * and comes back to the form (return_to). The receipt says `account` and an opaque respondent, and
 * verifies with @sess/client (minAssurance) and `sess receipt verify` (--min-assurance). A `link`
 * form is answered by the link alone, as before.
 */
import { PassThrough, Readable } from 'node:stream';
import { createSessClient, SessClientError } from '@sess/client';
import { formAnswers } from '@sess/db';
import { readSession } from '@sess/forms';
import { createTestUser, createUser, inputValue, setFormAssurance, signInTestUser, TestBrowser } from '@sess/testkit';
import { commitInteraction, createLink, type PagesHarness, startPagesHarness } from '@sess/testkit/pages';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReceiptVerify } from '../src/commands/receipt-verify.ts';

let h: PagesHarness;
let person: { userId: string; cookie: string };
let other: { userId: string; cookie: string };

beforeAll(async () => {
  h = await startPagesHarness();
  const personId = (await createUser(h.database.db, { workspaceId: h.ctx.workspaceId })).userId;
  const otherId = (await createUser(h.database.db, { workspaceId: h.ctx.workspaceId })).userId;
  person = { userId: personId, cookie: (await signInTestUser(h.database.db, personId, h.now())).cookie };
  other = { userId: otherId, cookie: (await signInTestUser(h.database.db, otherId, h.now())).cookie };
});
afterAll(async () => {
  await h?.close();
});

async function accountLink(forUserIds = [person.userId]) {
  const link = await createLink(h, commitInteraction());
  await setFormAssurance(h.database.db, link.sessionId, 'account', forUserIds);
  return link;
}

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });

/** The form's post fields as the page renders them for `cookie`'s browser (CSRF token, revision, button). */
async function formFields(pageUrl: string, cookie: string, message: string): Promise<Record<string, string>> {
  const html = await (await get(pageUrl, cookie)).text();
  return { _csrf: inputValue(html, '_csrf') ?? '', _revision: '1', _action: 'approve', message };
}

function post(pageUrl: string, fields: Record<string, string>, cookie?: string) {
  return fetch(pageUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

async function answers(sessionId: string) {
  return h.database.db
    .select({ assurance: formAnswers.assurance, answeredByUserId: formAnswers.answeredByUserId })
    .from(formAnswers)
    .where(eq(formAnswers.sessionId, sessionId));
}

describe('the agent fetching its own link (self-approval)', () => {
  it('GET without the cookie: the sign-in page, back to the form', async () => {
    const link = await accountLink();
    const page = await get(link.pageUrl);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`/signin?return_to=${encodeURIComponent(`/s/${link.token}`)}`);
    const signIn = await get(new URL(page.headers.get('location')!, h.url).href);
    expect(signIn.status).toBe(200);
    const html = await signIn.text();
    expect(html).toContain('Sign in');
    expect(html).not.toContain('Approve this commit?');
    // The receipt download is behind the same door.
    expect((await get(`${link.pageUrl}/receipt`)).status).toBe(303);
  });

  it('POST without the cookie, even with a valid CSRF token of the form: sign-in, nothing answered', async () => {
    const link = await accountLink();
    const fields = await formFields(link.pageUrl, person.cookie, 'Self-approved');
    expect(fields._csrf).not.toBe('');
    const posted = await post(link.pageUrl, fields);
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toMatch(/^\/signin\?return_to=/);
    expect(await answers(link.sessionId)).toEqual([]);
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).state).toBe('waiting');
  });
});

describe('another member signed in', () => {
  it('GET and POST: "This form is for someone else" (403), nothing answered', async () => {
    const link = await accountLink();
    const page = await get(link.pageUrl, other.cookie);
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain('This form is for someone else');
    expect(html).not.toContain('Approve this commit?');
    const fields = await formFields(link.pageUrl, person.cookie, 'Not mine to send');
    const posted = await post(link.pageUrl, fields, other.cookie);
    expect(posted.status).toBe(403);
    expect(await posted.text()).toContain('This form is for someone else');
    expect((await get(`${link.pageUrl}/receipt`, other.cookie)).status).toBe(403);
    expect(await answers(link.sessionId)).toEqual([]);
  });
});

describe('the person the form is for', () => {
  it('answers signed in; the receipt says account with an opaque respondent and verifies (client and CLI, with a minimum)', async () => {
    const link = await accountLink();
    const page = await get(link.pageUrl, person.cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Approve this commit?');
    const posted = await post(link.pageUrl, await formFields(link.pageUrl, person.cookie, 'Approved by me'), person.cookie);
    expect(posted.status).toBe(303);
    expect(await answers(link.sessionId)).toEqual([{ assurance: 'account', answeredByUserId: person.userId }]);

    const { response, surfaceSha256 } = await readSession({ ctx: h.ctx, sessionId: link.sessionId });
    expect(response).toMatchObject({ assurance: 'account' });
    const respondent = response!.respondent!;
    expect(respondent).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(respondent).not.toContain(person.userId);

    // The person's own receipt page says the level, and the download is theirs.
    const done = await (await get(link.pageUrl, person.cookie)).text();
    expect(done).toContain('by your Sess account, signed in');
    const download = await get(`${link.pageUrl}/receipt`, person.cookie);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(response!.receipt);

    // @sess/client, against the app's published keys.
    const client = createSessClient({ origin: h.url, apiKey: 'sess_unused_for_verification', receiptIssuer: h.publicUrl });
    const input = {
      response: response!,
      sessionId: link.sessionId,
      revision: 1,
      surfaceSha256,
      workspaceId: h.ctx.workspaceId,
    };
    const verified = await client.receipts.verifyResponse({ ...input, minAssurance: 'account' });
    expect(verified).toMatchObject({ assurance: 'account', respondent, via: 'link' });
    // Read by the workspace itself, the view names the e-mail (unsigned); the client passes it on only beside a verified respondent.
    expect(verified.respondentEmail).toBe(response!.respondentEmail);
    expect(verified.respondentEmail).toMatch(/@/);
    const unnamed = { ...response!, respondent: undefined };
    await expect(client.receipts.verifyResponse({ ...input, response: unnamed })).rejects.toMatchObject({
      reason: 'ASSURANCE_MISMATCH',
    });
    const tooLow = await client.receipts.verifyResponse({ ...input, minAssurance: 'passkey' }).catch((error: unknown) => error);
    expect(tooLow).toBeInstanceOf(SessClientError);
    expect(tooLow).toMatchObject({ code: 'VERIFICATION_FAILED', reason: 'ASSURANCE_TOO_LOW' });
    // An answer view that hides the level is refused: it must say what the receipt signs.
    const hidden = { ...response!, assurance: 'link' as const };
    await expect(client.receipts.verifyResponse({ ...input, response: hidden })).rejects.toMatchObject({
      reason: 'ASSURANCE_MISMATCH',
    });

    // sess receipt verify, in process, against the same keys.
    const cli = async (...args: string[]) => {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let out = '';
      let err = '';
      stdout.on('data', (chunk) => {
        out += chunk;
      });
      stderr.on('data', (chunk) => {
        err += chunk;
      });
      const code = await runReceiptVerify(
        [response!.receipt, '--jwks', `${h.url}/.well-known/jwks.json`, '--issuer', h.publicUrl, ...args],
        { stdin: Readable.from([]), stdout, stderr, env: {} },
      );
      return { code, out, err };
    };
    const plain = await cli();
    expect(plain.code).toBe(0);
    expect(plain.out).toContain('account (the Sess account the form was for, signed in, answered)');
    expect(plain.out).toContain(respondent);
    expect((await cli('--min-assurance', 'account')).code).toBe(0);
    const below = await cli('--min-assurance', 'passkey');
    expect(below.code).toBe(1);
    expect(below.err).toContain('below the assurance required by --min-assurance');
    expect((await cli('--min-assurance', 'high')).code).toBe(2);
  });

  it('not signed in: signs in through the sign-in page and comes back to the form (return_to)', async () => {
    const account = await createTestUser(h.database.db, { now: h.now() });
    const link = await accountLink([account.userId]);
    const browser = new TestBrowser(h.url);
    const first = await browser.get(`/s/${link.token}`);
    expect(first.status).toBe(303);
    const back = new URL(first.location!, h.url).searchParams.get('return_to');
    expect(back).toBe(`/s/${link.token}`);
    // The sign-in page the redirect named carries return_to in its form.
    const withReturn = await browser.submit(first.location!, '/signin', { email: account.email, password: account.password });
    expect(withReturn.status).toBe(303);
    expect(withReturn.location).toBe(`/s/${link.token}`);
    const form = await browser.get(withReturn.location!);
    expect(form.status).toBe(200);
    expect(form.html).toContain('Approve this commit?');
  });
});

describe('a link form', () => {
  it('is opened and answered by the link alone, as before', async () => {
    const link = await createLink(h, commitInteraction());
    const page = await get(link.pageUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    const fields = { _csrf: inputValue(html, '_csrf') ?? '', _revision: '1', _action: 'approve', message: 'By the link' };
    expect((await post(link.pageUrl, fields)).status).toBe(303);
    expect(await answers(link.sessionId)).toEqual([{ assurance: 'link', answeredByUserId: null }]);
    expect((await readSession({ ctx: h.ctx, sessionId: link.sessionId })).response).toMatchObject({ assurance: 'link' });
  });
});
