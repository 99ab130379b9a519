import { describe, expect, it } from 'vitest';
import { renderAnswerPage } from './answer-page.tsx';
import { commitSurface } from './fixtures.ts';
import { SUMMARY_MAX_CHARACTERS, summarizeAnswer } from './own-answer.tsx';
import type { AnswerPageView, OwnAnswerView, SurfaceView } from './view.ts';

/** The page's markup without its (constant) follow script, which holds sentences of its own. */
const render = (view: AnswerPageView) => renderAnswerPage(view, 'bm9uY2U=').replace(/<script[\s\S]*?<\/script>/g, '');

/** "What time works for a call tomorrow?" with a choice, a rating, a yes/no, a list and text. */
function callSurface(): SurfaceView {
  return {
    mode: 'interactive',
    title: 'What time works for a call tomorrow?',
    source: {
      kind: 'sess_surface',
      components: [
        {
          type: 'field',
          name: 'time',
          label: 'Time',
          schema: { type: 'string', enum: ['09', '14'], option_labels: ['9:00', '14:00'] },
        },
        { type: 'field', name: 'mood', label: 'How urgent?', schema: { type: 'integer', minimum: 1, maximum: 5 } },
        { type: 'field', name: 'video', label: 'Video', schema: { type: 'boolean' } },
        {
          type: 'field',
          name: 'with',
          label: 'Who joins',
          required: false,
          schema: { type: 'array', items: { type: 'string', enum: ['ann', 'bo'], option_labels: ['Ann', 'Bo'] } },
        },
        { type: 'field', name: 'note', label: 'Note', required: false, schema: { type: 'string' } },
        { type: 'field', name: 'size', label: 'People', required: false, schema: { type: 'integer' } },
      ],
    },
    actions: [
      { id: 'send', label: 'Send', intent: 'submit' },
      { id: 'none', label: 'No time', intent: 'reject' },
    ],
  };
}

function answer(values: OwnAnswerView['values'], actionId = 'send'): OwnAnswerView {
  return { surface: callSurface(), actionId, values, receiptPath: '/s/tok/receipt' };
}

describe('the person’s own answer, in short', () => {
  it('says each field in the form’s own words, in the form’s order, and the button pressed', () => {
    const summary = summarizeAnswer(answer({ time: '14', mood: 4, video: false, with: ['bo', 'ann'], note: 'Call me', size: 3 }));
    expect(summary).toEqual({
      action: 'Send',
      lines: [
        { label: 'Time', value: '14:00' },
        { label: 'How urgent?', value: '4 of 5' },
        { label: 'Video', value: 'No' },
        { label: 'Who joins', value: 'Bo and Ann' },
        { label: 'Note', value: 'Call me' },
        { label: 'People', value: '3' },
      ],
    });
  });

  it('says "No answer" for what was left empty (a Stop sends no fields)', () => {
    const summary = summarizeAnswer(answer({}, 'none'));
    expect(summary.action).toBe('No time');
    expect(summary.lines.map((line) => line.value)).toEqual(Array(6).fill('No answer'));
  });

  it('cuts long text after a few lines, by characters, never inside one', () => {
    const long = '😀'.repeat(SUMMARY_MAX_CHARACTERS + 5);
    const note = summarizeAnswer(answer({ note: long })).lines.find((line) => line.label === 'Note');
    expect(note?.value).toBe(`${'😀'.repeat(SUMMARY_MAX_CHARACTERS)}…`);
  });

  it('names no button for a form with one button: its label ("Send") only sends, it is not an answer', () => {
    const send = {
      ...answer({ time: '09' }),
      surface: { ...callSurface(), actions: [{ id: 'send', label: 'Send', intent: 'submit' as const }] },
    };
    expect(summarizeAnswer(send).action).toBeUndefined();
    const html = render({ state: 'answered', title: 'Q', revision: 1, pagePath: '/s/tok', answer: send });
    expect(html).not.toContain('You chose');
    expect(html).toContain('<dt>Time</dt><dd>9:00</dd>');
  });

  it('names no button for a form without actions (its one Submit says nothing)', () => {
    const bare = { ...answer({ time: '09' }), surface: { ...callSurface(), actions: undefined } };
    expect(summarizeAnswer(bare).action).toBeUndefined();
  });
});

describe('after an answer: the summary and the receipt', () => {
  it('waiting: "Sent", the answer in short, and the receipt to download with how to verify it', () => {
    const html = render({
      state: 'answered',
      title: 'Approve this commit?',
      revision: 1,
      pagePath: '/s/tok',
      answer: { surface: commitSurface(), actionId: 'stop', values: {}, receiptPath: '/s/tok/receipt' },
    });
    expect(html).toContain('Sent — waiting for the next step</h1>');
    expect(html).toContain('<h2 id="own-answer-heading">Your answer</h2>');
    expect(html).toContain('<dt>You chose</dt><dd>Stop</dd>');
    expect(html).toContain('<dt>Commit message</dt><dd>No answer</dd>');
    expect(html).toContain('<a class="button secondary wide" href="/s/tok/receipt" download="">Download your receipt</a>');
    expect(html).toContain('<code>npx sess receipt verify &lt;file&gt;</code> in a Sess checkout.');
  });

  it('done: the answer and the receipt stay on the page', () => {
    const html = render({ state: 'completed', title: 'Q', answer: answer({ time: '09', mood: 2, video: true }) });
    expect(html).toContain('Done</h1>');
    expect(html).toContain('The agent has your answer.');
    expect(html).toContain('<dt>Time</dt><dd>9:00</dd>');
    expect(html).toContain('href="/s/tok/receipt"');
  });

  it('a second tab’s refused answer is one message: already answered, the first one kept, nothing "Sent"', () => {
    const html = render({
      state: 'answered',
      title: 'Q',
      revision: 1,
      pagePath: '/s/tok',
      alreadyAnswered: true,
      answer: answer({ time: '09' }),
    });
    expect(html).toContain('Already answered — waiting for the next step</h1>');
    expect(html.match(/first answer sent is the one kept/g)).toHaveLength(1);
    expect(html).not.toContain('Sent —');
    expect(html).not.toContain('Your answer was sent');
    expect(html).not.toContain('class="banner');
    expect(html).toContain('<h2 id="own-answer-heading">The answer kept</h2>');
    const done = render({ state: 'completed', title: 'Q', alreadyAnswered: true, answer: answer({ time: '09' }) });
    expect(done.match(/first answer sent is the one kept/g)).toHaveLength(1);
    expect(done).toContain('The agent has that answer.');
  });

  it('withdrawn and expired pages show no answer and no receipt', () => {
    for (const state of ['withdrawn', 'expired'] as const) expect(render({ state, title: 'Q' })).not.toContain('receipt');
  });
});
