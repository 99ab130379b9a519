import type { AskLinkView, InteractionLinkView, RespondentLinkView } from '@sess/forms';
import type { Surface } from '@sess/surface';
import { describe, expect, it } from 'vitest';
import { createPageCsrf } from './page-csrf.ts';
import { toPageView } from './to-page-view.ts';

const csrf = createPageCsrf('a-server-secret-of-at-least-32-characters');
const TOKEN = 'T'.repeat(43);
const NOW = new Date('2030-01-01T10:00:00Z');
const surface: Surface = {
  mode: 'interactive',
  title: 'Approve?',
  source: { kind: 'sess_surface', components: [{ type: 'text', text: 'Details here.' }] },
};

function interaction(state: InteractionLinkView['state'], extra: Partial<InteractionLinkView> = {}): InteractionLinkView {
  return {
    kind: 'interaction',
    sessionId: 'ses_1',
    state,
    revision: 2,
    surface,
    expiresAt: '2030-01-01T11:00:00.000Z',
    deadlineAt: '2030-01-01T11:00:00.000Z',
    horizonAt: null,
    extendable: false,
    canExtend: false,
    answer: null,
    answerInChat: true,
    assurance: 'link',
    forUserIds: null,
    ...extra,
  };
}

describe('toPageView', () => {
  it('open: the form posts to the page with a CSRF token for this link and revision', () => {
    const view = toPageView(interaction('open'), TOKEN, csrf, NOW);
    expect(view).toMatchObject({ state: 'open', revision: 2, form: { action: `/s/${TOKEN}` }, now: NOW, respondent: false });
    if (view.state !== 'open') throw new Error('not open');
    expect(csrf.verify('answer', TOKEN, 2, view.form.csrf)).toBe(true);
    expect(view.expiresAt?.toISOString()).toBe('2030-01-01T11:00:00.000Z');
  });

  it('answered: waits on the page path, with the notice', () => {
    expect(toPageView(interaction('answered'), TOKEN, csrf, NOW, { notice: 'n' })).toEqual({
      state: 'answered',
      title: 'Approve?',
      revision: 2,
      pagePath: `/s/${TOKEN}`,
      notice: 'n',
    });
  });

  it('lapsed: offers more time only when the link may be extended', () => {
    const extendable = toPageView(interaction('lapsed', { canExtend: true }), TOKEN, csrf, NOW);
    expect(extendable).toMatchObject({ state: 'lapsed', extend: { action: `/s/${TOKEN}/extend` } });
    if (extendable.state !== 'lapsed' || !extendable.extend) throw new Error('no extend');
    expect(csrf.verify('extend', TOKEN, 2, extendable.extend.csrf)).toBe(true);
    expect(toPageView(interaction('lapsed'), TOKEN, csrf, NOW)).toMatchObject({ state: 'lapsed', extend: undefined });
  });

  it.each(['completed', 'withdrawn', 'expired'] as const)('%s: a closed page with the title', (state) => {
    expect(toPageView(interaction(state), TOKEN, csrf, NOW)).toEqual({ state, title: 'Approve?', notice: undefined });
  });

  it('an Ask: Start while a place is free, else why not; its details show on the landing', () => {
    const ask = (state: AskLinkView['state']): AskLinkView => ({
      kind: 'ask',
      sessionId: 'ask_1',
      state,
      canStart: state === 'open',
      askName: false,
      revision: 1,
      surface,
      expiresAt: '2030-01-02T00:00:00.000Z',
      deadlineAt: '2030-01-02T00:00:00.000Z',
      assurance: 'link',
      forUserIds: null,
    });
    expect(toPageView(ask('open'), TOKEN, csrf, NOW)).toMatchObject({
      state: 'ask',
      description: 'Details here.',
      start: { action: `/s/${TOKEN}/start` },
      closed: undefined,
    });
    expect(toPageView(ask('full'), TOKEN, csrf, NOW)).toMatchObject({ state: 'ask', start: undefined, closed: 'full' });
    expect(toPageView(ask('closed'), TOKEN, csrf, NOW)).toMatchObject({ state: 'ask', start: undefined, closed: 'closed' });
    expect(toPageView(ask('withdrawn'), TOKEN, csrf, NOW)).toMatchObject({ state: 'withdrawn' });
  });

  it('a respondent page: its own form, then Done once its answer is accepted', () => {
    const respondent = (state: RespondentLinkView['state']): RespondentLinkView => ({
      kind: 'respondent',
      sessionId: 'ask_1',
      respondentId: 'rsp_1',
      state,
      revision: 1,
      surface,
      assurance: 'link',
      forUserIds: null,
      expiresAt: '2030-01-01T10:30:00.000Z',
      deadlineAt: '2030-01-01T10:30:00.000Z',
      answer: null,
    });
    const own = `r${'R'.repeat(43)}`;
    expect(toPageView(respondent('open'), own, csrf, NOW)).toMatchObject({
      state: 'open',
      respondent: true,
      form: { action: `/s/${own}` },
    });
    expect(toPageView(respondent('completed'), own, csrf, NOW)).toMatchObject({ state: 'completed' });
    expect(toPageView(respondent('expired'), own, csrf, NOW)).toMatchObject({ state: 'expired' });
  });
});
