import { describe, expect, it } from 'vitest';
import { renderAnswerPage } from './answer-page.tsx';
import { commitSurface, openView } from './fixtures.ts';
import type { AnswerPageView } from './view.ts';

const LINK = `http://192.168.1.20:8787/s/${'T'.repeat(43)}`;
const render = (view: AnswerPageView) => renderAnswerPage(view, 'bm9uY2U=');

describe('"Answer on your phone"', () => {
  it('an open form offers the QR code and the link itself, above the form', () => {
    const html = render(openView(commitSurface(), { link: LINK }));
    expect(html).toContain('<h2 id="handoff-heading">Answer on your phone</h2>');
    expect(html).toContain(`<a href="${LINK}" dir="ltr">${LINK}</a>`);
    expect(html.indexOf('class="handoff"')).toBeLessThan(html.indexOf('<form'));
  });

  it('an Ask’s landing offers it while people can start, not once it is full or closed', () => {
    const start = { action: '/s/a/start', csrf: 'c' };
    expect(render({ state: 'ask', title: 'Where?', start, link: LINK })).toContain('Answer on your phone');
    expect(render({ state: 'ask', title: 'Where?', closed: 'full', link: LINK })).not.toContain('Answer on your phone');
  });

  it('says so when the link names this computer, which a phone cannot open', () => {
    const local = `http://localhost:8787/s/${'T'.repeat(43)}`;
    expect(render(openView(commitSurface(), { link: local }))).toContain('a phone cannot open it');
    expect(render(openView(commitSurface(), { link: `http://127.0.0.1:8787/s/${'T'.repeat(43)}` }))).toContain(
      'a phone cannot open it',
    );
    expect(render(openView(commitSurface(), { link: LINK }))).not.toContain('a phone cannot open it');
  });

  it('is not offered without the link, nor on pages where there is nothing to answer', () => {
    expect(render(openView(commitSurface()))).not.toContain('handoff');
    expect(render({ state: 'answered', title: 'Q', revision: 1, pagePath: '/s/tok' })).not.toContain('handoff');
    expect(render({ state: 'completed', title: 'Q' })).not.toContain('handoff');
  });
});
