import { describe, expect, it } from 'vitest';
import { renderAnswerPage } from '../answer/answer-page.tsx';
import { commitSurface, everyFieldSurface, openView } from '../answer/fixtures.ts';
import type { AnswerPageView } from '../answer/view.ts';
import { CHAT_VIEW_DOCUMENT } from './chat-document.ts';
import { renderChatFragment } from './chat-fragment.tsx';

const ORIGIN = 'https://sess.example';
const LINK = `${ORIGIN}/s/${'L'.repeat(43)}`;
const chat = (view: AnswerPageView) => renderChatFragment(view, { origin: `${ORIGIN}/ignored/path`, link: LINK });
const receipt = { surface: commitSurface(), actionId: 'approve', values: { message: 'm' }, receiptPath: '/s/tok/receipt' };

describe('the chat fragment', () => {
  it('draws the same form as the page, without the CSRF token or the form’s action', () => {
    const view = openView(everyFieldSurface(), { link: 'https://other.example/s/x' });
    const html = chat(view);
    const page = renderAnswerPage(view, 'bm9uY2U=');
    // Every control of the page is there, byte for byte.
    const controls = (text: string) => text.match(/<(?:input|select|textarea|button|fieldset|label)\b[^>]*>/g) ?? [];
    expect(controls(html).filter((tag) => !tag.includes('_csrf'))).toEqual(
      controls(page).filter((tag) => !tag.includes('_csrf')),
    );
    expect(html).not.toContain('_csrf');
    expect(html).not.toContain('action=');
    expect(html).toContain('<form method="post" data-chat-form="">');
    expect(html).not.toMatch(/^<!doctype/i);
    // The link given for the chat wins over the page's own.
    expect(html).toContain(`href="${LINK}"`);
    expect(html).not.toContain('other.example');
  });

  it('offers "Answer on my phone" with the QR code of the link', () => {
    const html = chat(openView(commitSurface()));
    expect(html).toContain('class="handoff in-chat"');
    expect(html).toContain('<svg class="qr"');
    expect(html).toMatch(
      /<a class="button wide" href="https:\/\/sess\.example\/s\/L+" target="_blank" rel="noopener noreferrer" data-open-link="" data-phone-link="">Answer on my phone<\/a>/,
    );
    expect(renderChatFragment(openView(commitSurface()), { origin: ORIGIN })).not.toContain('handoff');
    // The chat cannot run a passkey ceremony: its form never promises one.
    expect(chat(openView(commitSurface(), { passkeyNext: true }))).not.toContain('asks for your passkey');
  });

  it('links the receipt absolutely on the links’ origin, opened by the host', () => {
    for (const view of [
      { state: 'answered', title: 'Q', revision: 2, pagePath: '/s/tok', answer: receipt },
      { state: 'completed', title: 'Q', answer: receipt },
    ] as const) {
      const html = chat(view);
      expect(html).toContain(
        '<a class="button secondary wide" href="https://sess.example/s/tok/receipt" target="_blank" rel="noopener noreferrer" data-open-link="">Download your receipt</a>',
      );
      expect(html).not.toContain('href="/s/');
    }
  });

  it('keeps every other state free of posts and relative links', () => {
    const views: AnswerPageView[] = [
      { state: 'answered', title: 'Q', revision: 2, pagePath: '/s/tok' },
      { state: 'withdrawn', title: 'Q' },
      { state: 'expired' },
      { state: 'lapsed', title: 'Q', extend: { action: '/s/tok/extend', csrf: 'c' } },
      { state: 'lapsed', title: 'Q' },
      { state: 'ask', title: 'Where?', start: { action: '/s/a/start', csrf: 'c' }, link: LINK },
      { state: 'ask', title: 'Where?', closed: 'full', pagePath: '/s/a' },
      { state: 'refused', pagePath: '/s/tok' },
    ];
    for (const view of views) {
      const html = chat(view);
      expect(html, view.state).not.toMatch(/_csrf|action=|href="\//);
    }
    expect(chat(views[3] as AnswerPageView)).toContain('Ask for more time</a>');
    expect(chat(views[5] as AnswerPageView)).toContain('Answer on my phone');
    expect(chat(views[6] as AnswerPageView)).toContain('href="https://sess.example/s/a" target="_blank"');
  });

  it('is a fragment the document’s script can place: the document holds no data of its own', () => {
    expect(CHAT_VIEW_DOCUMENT).toContain('<div id="sess-view"');
    expect(CHAT_VIEW_DOCUMENT).not.toMatch(/sess\.example|\/s\//);
  });
});
