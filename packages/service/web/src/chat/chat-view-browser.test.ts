/*
 * The chat view in a real host: Chromium renders CHAT_VIEW_DOCUMENT in a sandboxed iframe under
 * the hosts' CSP, driven by ext-apps' own AppBridge (@sess/testkit/mcp-app-host). The payloads are
 * made here by the real renderChatFragment from the answer page's fixtures; the app-only tools are
 * answered by a small script of payloads, so each of the view's behaviours is seen on its own (the
 * whole way through a running Sess is the MCP package's end-to-end test).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { launchTestBrowser, SCREEN_SIZES, SCREENSHOTS_DIR, sidewaysOverflow } from '@sess/testkit/browser';
import {
  type AppHost,
  type AppHostOptions,
  type CallToolParams,
  type CallToolResult,
  openAppHost,
} from '@sess/testkit/mcp-app-host';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { commitSurface, everyFieldSurface, HOSTILE_STRINGS, openView } from '../answer/fixtures.ts';
import type { AnswerPageView, SurfaceView } from '../answer/view.ts';
import { spoof } from '../bidi-fixtures.ts';
import { CHAT_VIEW_DOCUMENT, CHAT_VIEW_VERSION } from './chat-document.ts';
import { renderChatFragment } from './chat-fragment.tsx';
import { CHAT_VIEW_META_KEY, type ChatViewPayload } from './payload.ts';

const ORIGIN = 'https://sess.example';
const LINK = `${ORIGIN}/s/${'L'.repeat(43)}`;
const HANDLE = 'h_test';
const MESSAGE = 'I answered "Plan the trip" in the form. Call sess_response now.';
const SLOW = { timeout: 120_000 };

/** A tool result carrying the view's payload for `view`, as the lead's server makes it. */
function result(view: AnswerPageView, extra: Partial<ChatViewPayload> = {}): CallToolResult {
  const state = view.state as ChatViewPayload['state'];
  const payload: ChatViewPayload = {
    v: 1,
    handle: HANDLE,
    revision: 'revision' in view ? view.revision : 1,
    state,
    html: renderChatFragment(view, { origin: ORIGIN, link: LINK }),
    poll: state === 'open' || state === 'answered',
    ...(state === 'open' || state === 'answered' ? { token: `tok-${state}` } : {}),
    link: LINK,
    ...extra,
  };
  return { content: [{ type: 'text', text: 'Shown in the form.' }], _meta: { [CHAT_VIEW_META_KEY]: payload } };
}

const answered = (surface: SurfaceView): AnswerPageView => ({
  state: 'answered',
  title: surface.title,
  revision: 1,
  pagePath: '/s/tok',
  answer: { surface, actionId: 'submit', values: { name: 'Ada Lovelace' }, receiptPath: '/s/tok/receipt' },
});

let browser: Browser;
const open: AppHost[] = [];
beforeAll(async () => {
  browser = await launchTestBrowser();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const host of open.splice(0)) {
    // Every test: nothing the CSP refused, no script error, in any frame.
    expect(host.cspViolations).toEqual([]);
    expect(host.pageErrors).toEqual([]);
    await host.close();
  }
});

/** Opens the view in the test host, answering tool calls from `replies` in order. */
async function host(options: Partial<AppHostOptions> & { replies?: CallToolResult[] } = {}): Promise<AppHost> {
  const replies = [...(options.replies ?? [])];
  const opened = await openAppHost(browser, {
    html: CHAT_VIEW_DOCUMENT,
    context: SCREEN_SIZES.desktop,
    callTool: async (_params: CallToolParams) => {
      const next = replies.shift();
      if (!next) throw new Error('no reply scripted');
      return next;
    },
    ...options,
  });
  open.push(opened);
  return opened;
}

/** A screenshot of the view's iframe at the height it asked for (this unit suite runs on no database driver). */
async function screenshot(page: Page, name: string): Promise<void> {
  const viewport = page.viewportSize();
  const height = await page.locator('iframe').evaluate((frame) => Math.ceil(frame.getBoundingClientRect().height));
  // Chromium draws an out-of-process frame only inside the viewport: make it the frame's height.
  if (viewport) await page.setViewportSize({ width: viewport.width, height: Math.max(height, 1) });
  await page.locator('iframe').screenshot({ path: `${SCREENSHOTS_DIR}/${name}.png` });
  if (viewport) await page.setViewportSize(viewport);
}

/** axe-core's own build, run inside the view's frame (the page-level runner does not reach the host's sandboxed frame). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The WCAG A/AA violations axe finds in the view's document, one line each (as `axeViolations` writes them). */
async function frameViolations(frame: Frame): Promise<string[]> {
  await frame.evaluate(AXE_SOURCE);
  const violations = await frame.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } })
      .axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return results.violations as { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  }, WCAG_AA_TAGS);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const heading = (h: AppHost, name: string | RegExp) => h.frame.getByRole('heading', { level: 1, name });

describe('the document', () => {
  it('is one self-contained document under 60 KB, versioned by its hash', () => {
    expect(Buffer.byteLength(CHAT_VIEW_DOCUMENT)).toBeLessThan(60_000);
    expect(CHAT_VIEW_VERSION).toBe(createHash('sha256').update(CHAT_VIEW_DOCUMENT).digest('hex').slice(0, 12));
    // Nothing from any origin: no src, no href, no url() other than data:.
    expect(CHAT_VIEW_DOCUMENT).not.toMatch(/\s(?:src|href)=|url\((?!data:)|@import/);
  });

  it('completes the handshake and shows a result without the payload as text', SLOW, async () => {
    const h = await host();
    await h.sendToolResult({ content: [{ type: 'text', text: '<b>not markup</b>' }], isError: true });
    await h.frame.getByText('<b>not markup</b>').waitFor();
    expect(await h.frame.locator('b').count()).toBe(0);
  });

  it('runs under the hosts’ CSP, and the test host sees a violation when there is one', SLOW, async () => {
    const h = await host();
    await h.frame.evaluate(() => {
      const img = document.createElement('img');
      img.src = 'https://elsewhere.example/pixel.png';
      document.body.append(img);
    });
    await expect.poll(() => h.cspViolations.some((v) => v.includes('img-src'))).toBe(true);
    // This test's violation was its own: the others must see none.
    h.cspViolations.splice(0);
  });
});

describe.each([
  ['phone', SCREEN_SIZES.phone],
  ['desktop', SCREEN_SIZES.desktop],
] as const)('at %s size', (size, context) => {
  it('shows every field type, sends the form as a browser posts it, then tells the agent', SLOW, async () => {
    const surface = everyFieldSurface();
    const h = await host({ context, replies: [result(answered(surface), { message: MESSAGE, poll: false })] });
    await h.sendToolResult(result(openView(surface, { revision: 3 }), { revision: 3 }));
    const f = h.frame;
    await heading(h, 'Plan the trip').waitFor();
    await f.getByRole('heading', { level: 2, name: 'About you' }).waitFor();
    expect(await f.getByLabel('Your name (required)').inputValue()).toBe('Ada');
    expect(await f.getByRole('textbox', { name: 'Email' }).getAttribute('type')).toBe('email');
    expect(await f.getByLabel('Notes').evaluate((e) => e.tagName)).toBe('TEXTAREA');
    expect(await f.getByLabel('Budget (EUR) (required)').inputValue()).toBe('250.5');
    // A number box says its range in its description (the page's language), not with max="14".
    await expect.poll(() => f.getByLabel('Nights (required)').getAttribute('aria-describedby')).toBe('f-nights-format');
    expect(await f.locator('#f-nights-format').textContent()).toBe('A whole number from 1 to 14.');
    expect(await f.getByRole('checkbox', { name: 'Bringing a pet' }).isChecked()).toBe(true);
    expect(await f.getByRole('radio', { name: 'Mountains' }).isChecked()).toBe(true);
    await f.getByRole('combobox', { name: 'Month (required)' }).waitFor();
    expect(await f.getByRole('checkbox', { name: 'Boat' }).isChecked()).toBe(true);
    await f.getByRole('group', { name: 'How excited are you? (required)' }).waitFor();
    expect(await sidewaysOverflow(f.page())).toMatchObject({ elements: [] });
    expect(await f.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

    await f.getByLabel('Your name (required)').fill('Ada Lovelace');
    await f.getByRole('combobox', { name: 'Month (required)' }).selectOption('feb');
    await f.getByRole('checkbox', { name: 'Car' }).check();
    await f.getByText('4', { exact: true }).click();
    await screenshot(h.page, `chat-view-every-field-${size}`);
    await f.getByRole('button', { name: 'Plan it' }).click();

    await heading(h, /Sent/).waitFor();
    // Focus moves to the news, as on the page.
    expect(await h.frame.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(h.toolCalls).toEqual([
      {
        name: 'sess_view_answer',
        arguments: {
          handle: HANDLE,
          revision: 3,
          token: 'tok-open',
          action_id: 'submit',
          values: {
            name: 'Ada Lovelace',
            email: '',
            notes: '',
            budget: '250.5',
            nights: '2',
            pets: 'on',
            place: 'mountains',
            month: 'feb',
            extras: ['boat', 'car'],
            mood: '4',
          },
        },
      },
    ]);
    await expect.poll(() => h.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: MESSAGE }] }]);
    expect(await f.getByText('Say "continue"').count()).toBe(0);
    // The host fits the iframe to the content: the frame is as tall as its document, no nested scroll.
    await expect.poll(() => f.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true);
  });
});

describe('answering', () => {
  it('shows the server’s errors at their fields, keeps the values and lets the person send again', SLOW, async () => {
    const surface = everyFieldSurface();
    const refused = openView(surface, {
      posted: { name: '', budget: '250.5', nights: '2', place: 'mountains', month: 'jan', mood: '2' },
      errors: [{ field: 'name', code: 'required', message: 'Enter your name.' }],
    });
    const h = await host({ replies: [result(refused)] });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.getByLabel('Your name (required)').fill(' ');
    await h.frame.getByRole('combobox', { name: 'Month (required)' }).selectOption('jan');
    await h.frame.getByText('2', { exact: true }).click();
    await h.frame.getByRole('button', { name: 'Plan it' }).click();
    expect(await h.frame.locator('#f-name-error').textContent()).toBe('Error: Enter your name.');
    expect(await h.frame.evaluate(() => document.activeElement?.id)).toBe('error-summary');
    expect(await h.frame.getByRole('alert').textContent()).toContain('Your name: Enter your name.');
    expect(await h.frame.getByLabel('Your name (required)').getAttribute('aria-invalid')).toBe('true');
    expect(await h.frame.getByRole('button', { name: 'Plan it' }).isEnabled()).toBe(true);
    // The summary's link moves to its field without navigating the frame.
    await h.frame.getByRole('link', { name: 'Your name: Enter your name.' }).click();
    await expect.poll(() => h.frame.getByLabel('Your name (required)').evaluate((e) => e === document.activeElement)).toBe(true);
  });

  it('sends the pressed button’s id; a reject skips the browser’s required check', SLOW, async () => {
    const surface = commitSurface();
    const h = await host({ replies: [result({ state: 'completed', title: surface.title })] });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.getByLabel('Commit message (required)').fill('');
    await h.frame.getByRole('button', { name: 'Stop' }).click();
    await heading(h, 'Done').waitFor();
    expect(h.toolCalls[0]?.arguments).toMatchObject({ action_id: 'stop', values: { message: '' } });
  });

  it('says so when the answer could not be sent, and keeps following the form', SLOW, async () => {
    const surface = commitSurface();
    const h = await host({
      fakeClock: true,
      callTool: async (params) => {
        if (params.name === 'sess_view_answer') throw new Error('the connector is offline');
        return result(answered(surface));
      },
    });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.getByRole('button', { name: 'Approve and commit' }).click();
    await h.frame.getByText('Your answer could not be sent from here. Try again, or answer on your phone.').waitFor();
    expect(await h.frame.getByRole('button', { name: 'Approve and commit' }).isEnabled()).toBe(true);
    await h.settled();
    await h.page.clock.runFor(3_000);
    await heading(h, /Sent/).waitFor();
    expect(h.toolCalls.map((call) => call.name)).toEqual(['sess_view_answer', 'sess_view_status']);
  });

  it('disables the buttons while the answer is in flight', SLOW, async () => {
    const surface = commitSurface();
    let release: (r: CallToolResult) => void = () => {};
    const h = await host({
      callTool: () =>
        new Promise<CallToolResult>((resolve) => {
          release = resolve;
        }),
    });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.getByRole('button', { name: 'Approve and commit' }).click();
    await expect.poll(() => h.frame.getByRole('button', { name: 'Approve and commit' }).isDisabled()).toBe(true);
    await expect.poll(() => h.frame.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
    await expect.poll(() => h.toolCalls.length).toBe(1);
    release(result(answered(surface)));
    await heading(h, /Sent/).waitFor();
  });

  it('asks the person to say "continue" when the host refuses the message, after updating the model context', SLOW, async () => {
    const surface = commitSurface();
    const h = await host({ refuseMessages: true, replies: [result(answered(surface), { message: MESSAGE })] });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.getByRole('button', { name: 'Approve and commit' }).click();
    await h.frame.getByText('Say "continue" in the chat so the agent reads your answer.').waitFor();
    expect(h.messages).toHaveLength(1);
    expect(h.modelContext).toEqual([{ content: [{ type: 'text', text: MESSAGE }] }]);
  });

  it('asks for "continue" on a host that offers no messages', SLOW, async () => {
    const surface = commitSurface();
    const h = await host({
      hostCapabilities: { openLinks: {}, serverTools: {} },
      replies: [result(answered(surface), { message: MESSAGE })],
    });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.getByRole('button', { name: 'Approve and commit' }).click();
    await h.frame.getByText('Say "continue" in the chat so the agent reads your answer.').waitFor();
    expect(h.messages).toEqual([]);
    expect(h.modelContext).toEqual([]);
  });
});

describe('links', () => {
  it('opens "Answer on my phone" and the receipt through the host; the QR code shows on a computer only', SLOW, async () => {
    const surface = commitSurface();
    const desk = await host({ replies: [result(answered(surface))] });
    await desk.sendToolResult(result(openView(surface)));
    await desk.frame.getByRole('img', { name: 'QR code of this page’s link' }).waitFor();
    await desk.frame.getByRole('link', { name: 'Answer on my phone' }).click();
    await expect.poll(() => desk.openedLinks).toEqual([LINK]);
    await desk.frame.getByRole('button', { name: 'Approve and commit' }).click();
    await desk.frame.getByRole('link', { name: 'Download your receipt' }).click();
    await expect.poll(() => desk.openedLinks).toEqual([LINK, `${ORIGIN}/s/tok/receipt`]);
    expect(desk.page.frames()).toHaveLength(2);

    const phone = await host({ context: SCREEN_SIZES.phone, platform: 'mobile' });
    await phone.sendToolResult(result(openView(surface)));
    await phone.frame.getByRole('link', { name: 'Answer on my phone' }).waitFor();
    // Touch targets: at least 44 px tall, the phone button and the form's buttons alike.
    for (const target of [
      phone.frame.getByRole('link', { name: 'Answer on my phone' }),
      phone.frame.getByRole('button', { name: 'Stop' }),
      phone.frame.getByLabel('Commit message (required)'),
    ]) {
      expect((await target.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    }
    await phone.frame.getByRole('img', { name: 'QR code of this page’s link' }).waitFor({ state: 'hidden' });
  });
});

describe('following the form', () => {
  it('tells the agent of an answer given on the phone while the form was open, not of an old one', SLOW, async () => {
    const surface = commitSurface();
    const h = await host({ fakeClock: true, replies: [result(answered(surface), { message: MESSAGE })] });
    await h.sendToolResult(result(openView(surface)));
    await h.page.clock.runFor(3_000);
    await heading(h, /Sent/).waitFor();
    await expect.poll(() => h.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: MESSAGE }] }]);

    // A chat opened again later shows the answered form, and says nothing to the agent.
    const later = await host({ fakeClock: true });
    await later.sendToolResult(result(answered(surface), { message: MESSAGE }));
    await heading(later, /Sent/).waitFor();
    expect(later.messages).toEqual([]);
    expect(await later.frame.getByText('Say "continue"').count()).toBe(0);
  });

  it('polls with backoff, keeps what is typed while nothing changed, and shows the news', SLOW, async () => {
    const surface = commitSurface();
    const h = await host({
      fakeClock: true,
      replies: [
        result(openView(surface), { token: 'tok-2' }),
        result(openView(everyFieldSurface(), { revision: 2 }), { token: 'tok-3' }),
        result({ state: 'withdrawn', title: 'Plan the trip' }),
      ],
    });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.getByLabel('Commit message (required)').fill('typed by the person');
    await h.page.clock.runFor(2_999);
    expect(h.toolCalls).toEqual([]);
    await h.page.clock.runFor(1);
    await expect.poll(() => h.toolCalls.length).toBe(1);
    await h.settled();
    expect(h.toolCalls[0]).toEqual({ name: 'sess_view_status', arguments: { handle: HANDLE, revision: 1, token: 'tok-open' } });
    // Same state and revision: the form is kept as it is.
    expect(await h.frame.getByLabel('Commit message (required)').inputValue()).toBe('typed by the person');
    // The next call comes 1.5 times later, with the newest token.
    await h.page.clock.runFor(4_499);
    expect(h.toolCalls).toHaveLength(1);
    await h.page.clock.runFor(1);
    await expect.poll(() => h.toolCalls.length).toBe(2);
    expect(h.toolCalls[1]?.arguments).toEqual({ handle: HANDLE, revision: 1, token: 'tok-2' });
    // The agent published its next step: the new form is drawn, and the backoff starts over.
    await heading(h, 'Plan the trip').waitFor();
    await h.settled();
    await h.page.clock.runFor(3_000);
    await expect.poll(() => h.toolCalls.length).toBe(3);
    expect(h.toolCalls[2]?.arguments).toEqual({ handle: HANDLE, revision: 2, token: 'tok-3' });
    await heading(h, 'The question was withdrawn').waitFor();
    // Withdrawn: nothing more to follow.
    await h.page.clock.runFor(60_000);
    expect(h.toolCalls).toHaveLength(3);
  });

  it('asks nothing while the document is hidden', SLOW, async () => {
    const surface = commitSurface();
    const h = await host({ fakeClock: true, replies: [] });
    await h.sendToolResult(result(openView(surface)));
    await h.frame.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await h.page.clock.runFor(120_000);
    expect(h.toolCalls).toEqual([]);
  });
});

describe('theme and hostile text', () => {
  it('follows the host’s dark theme and its changes', SLOW, async () => {
    const h = await host({ theme: 'dark' });
    await h.sendToolResult(result(openView(commitSurface())));
    const ink = () => h.frame.evaluate(() => getComputedStyle(document.body).color);
    await expect.poll(() => h.frame.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await ink()).toBe('rgb(232, 234, 239)');
    await screenshot(h.page, 'chat-view-dark');
    await h.setHostContext({ theme: 'light' });
    await expect.poll(ink).toBe('rgb(22, 24, 29)');
  });

  it('shows hostile text as text, isolated, with no sideways scroll at phone width', SLOW, async () => {
    const long = 'W'.repeat(300);
    const hostile = [...HOSTILE_STRINGS, spoof('label'), long].join(' ');
    const surface: SurfaceView = {
      mode: 'interactive',
      title: `${HOSTILE_STRINGS[0]} ${long}`,
      description: spoof('description'),
      source: {
        kind: 'sess_surface',
        components: [
          { type: 'text', text: hostile },
          { type: 'record', label: HOSTILE_STRINGS[1], fields: { [HOSTILE_STRINGS[2]]: long } },
          {
            type: 'field',
            name: 'a',
            label: spoof('field'),
            schema: { type: 'string', enum: ['x', 'y'], option_labels: [long, HOSTILE_STRINGS[4]] },
          },
        ],
      },
      actions: [{ id: 'ok', label: `${HOSTILE_STRINGS[3]} ${long}`, intent: 'submit' }],
    };
    const h = await host({ context: SCREEN_SIZES.phone, platform: 'mobile' });
    let dialogs = 0;
    h.page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await h.sendToolResult(result(openView(surface)));
    await heading(h, /<script>alert\(1\)<\/script>/).waitFor();
    expect(await h.frame.locator('#sess-view :is(script, img, [onload], [onerror])').count()).toBe(0);
    expect(await h.frame.locator('bdi').count()).toBeGreaterThan(0);
    expect(await h.frame.evaluate(() => document.documentElement.clientWidth)).toBe(390);
    expect(await h.frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(await h.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(h.page, 'chat-view-hostile-phone');
    expect(dialogs).toBe(0);
  });
});

describe('language and accessibility', () => {
  const german = (): SurfaceView => ({ ...commitSurface(), locale: 'de' });

  it('speaks the form’s language: <html lang>, the fragment’s lang and the script’s sentences', SLOW, async () => {
    const surface = german();
    const h = await host({ locale: 'fr-FR', replies: [] });
    // Before any form: the host's language.
    await expect.poll(() => h.frame.evaluate(() => document.documentElement.lang)).toBe('fr');
    await h.sendToolResult(result(openView(surface)));
    await expect.poll(() => h.frame.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await h.frame.locator('.chat-frame').getAttribute('lang')).toBe('de');
    await h.frame.getByRole('button', { name: 'Approve and commit' }).click();
    // No reply is scripted: the call fails, and the view says so in German.
    await h.frame.getByText('Ihre Antwort konnte von hier aus nicht gesendet werden.', { exact: false }).waitFor();
  });

  it('uses the host’s language when the form has none Sess ships, else English', SLOW, async () => {
    const h = await host({
      locale: 'de-AT',
      refuseMessages: true,
      replies: [result(answered(commitSurface()), { message: MESSAGE })],
    });
    await h.sendToolResult(result(openView({ ...commitSurface(), locale: 'pt-BR' })));
    await expect.poll(() => h.frame.evaluate(() => document.documentElement.lang)).toBe('de');
    // The fragment (rendered by the server, which knows no host) is English, and says so.
    expect(await h.frame.locator('.chat-frame').getAttribute('lang')).toBe('en');
    expect(await h.frame.locator('.chat-frame').getAttribute('data-form-lang')).toBeNull();
    await h.frame.getByRole('button', { name: 'Approve and commit' }).click();
    await h.frame.getByText('Schreiben Sie „weiter“ in den Chat, damit der Agent Ihre Antwort liest.').waitFor();

    const plain = await host({ replies: [] });
    await plain.sendToolResult(result(openView(commitSurface())));
    await heading(plain, /.+/).waitFor();
    expect(await plain.frame.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  it('the frame’s axe run sees the view: a field without a label is a violation', SLOW, async () => {
    const h = await host();
    await h.sendToolResult({
      content: [],
      _meta: {
        [CHAT_VIEW_META_KEY]: {
          v: 1,
          handle: HANDLE,
          revision: 1,
          state: 'open',
          html: '<h1>T</h1><input type="text">',
          poll: false,
        },
      },
    });
    await heading(h, 'T').waitFor();
    expect((await frameViolations(h.frame)).map((line) => line.split(' ')[0])).toContain('label');
  });

  it('reflows at 320 px: no sideways scroll, in German', SLOW, async () => {
    const h = await host({ context: { viewport: { width: 320, height: 640 } }, platform: 'mobile' });
    await h.sendToolResult(result(openView({ ...everyFieldSurface(), locale: 'de' })));
    await heading(h, /.+/).waitFor();
    expect(await h.frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(await sidewaysOverflow(h.frame.page())).toMatchObject({ elements: [] });
  });

  for (const [language, surface] of [
    ['English', commitSurface],
    ['German', german],
  ] as const) {
    for (const [size, context] of Object.entries(SCREEN_SIZES)) {
      for (const theme of ['light', 'dark'] as const) {
        it(`has no axe violations: ${language}, ${size}, ${theme}`, SLOW, async () => {
          const h = await host({ context, theme, platform: size === 'phone' ? 'mobile' : 'web' });
          await h.sendToolResult(result(openView(surface())));
          await heading(h, /.+/).waitFor();
          expect(await frameViolations(h.frame)).toEqual([]);
          // The form as answered, with the status line showing.
          await h.sendToolResult(result(answered(surface())));
          await heading(h, /.+/).waitFor();
          expect(await frameViolations(h.frame)).toEqual([]);
        });
      }
    }
  }
});
