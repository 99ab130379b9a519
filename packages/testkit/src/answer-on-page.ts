/*
 * A person answering on the page behind a link, over HTTP with real form posts (what the page
 * does without JavaScript): GET the page, fill the form it shows, press a button. No verb of
 * ours is called: the answer goes in the way a phone sends it. Shared by every suite that has a
 * person answer (the client's, sess-mcp's, the OpenClaw plugin's).
 */
import { recordSecret, recordSecretLeaves } from './log-audit/capture.ts';
import { findForm } from './oauth-client.ts';

function formBody(fields: Record<string, string>, values: Record<string, string | string[]>): URLSearchParams {
  const body = new URLSearchParams(fields);
  for (const [name, value] of Object.entries(values)) {
    body.delete(name);
    for (const v of [value].flat()) body.append(name, v);
  }
  return body;
}

async function post(url: URL, body: URLSearchParams, cookie?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: url.origin,
      ...(cookie ? { cookie } : {}),
    },
    body,
  });
}

/** Answers the open form at `pageUrl` with `values` and the button `action` (default the first). */
async function answerForm(
  pageUrl: URL,
  values: Record<string, string | string[]>,
  action?: string,
  cookie?: string,
): Promise<number> {
  const html = await (await fetch(pageUrl, { headers: cookie ? { cookie } : {} })).text();
  const form = findForm(html, pageUrl.pathname);
  const body = formBody(form.fields, values);
  const button = Object.keys(form.buttons)[0];
  if (button) body.set(button, action ?? form.buttons[button]![0]!);
  return (await post(pageUrl, body, cookie)).status;
}

/**
 * A person answers an interaction's link, with `cookie` (a signed-in browser session, for a form
 * above `link`) when given. Returns the status of the post (303: accepted).
 */
export async function answerOnPage(
  humanUrl: string,
  values: Record<string, string | string[]>,
  action?: string,
  cookie?: string,
): Promise<number> {
  recordSecretLeaves(values, 'answer');
  return answerForm(new URL(humanUrl), values, action, cookie);
}

/**
 * A person answers an Ask's shared link: Start (which gives this browser a page of its own),
 * then the form on that page with the button `action` (default the first). Returns the status of
 * the answer's post (303: accepted).
 */
export async function answerAskOnPage(
  humanUrl: string,
  values: Record<string, string | string[]>,
  action?: string,
): Promise<number> {
  recordSecretLeaves(values, 'answer');
  const shared = new URL(humanUrl);
  const landing = await (await fetch(shared)).text();
  const start = findForm(landing, `${shared.pathname}/start`);
  const started = await post(new URL(`${shared.pathname}/start`, shared), new URLSearchParams(start.fields));
  if (started.status !== 303) throw new Error(`Start answered ${started.status}`);
  const own = new URL(started.headers.get('location')!, shared);
  recordSecret(own.href, 'link');
  recordSecret(own.pathname.split('/')[2], 'link');
  const cookie = started.headers.get('set-cookie')?.split(';')[0];
  return answerForm(own, values, action, cookie);
}
