import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escaped, expectIsolated, spoof } from '../bidi-fixtures.ts';
import { TIME_ZONE_SCRIPT } from '../i18n/index.ts';
import { renderAnswerPage } from './answer-page.tsx';
import { commitSurface, everyFieldSurface, HOSTILE_STRINGS, openView } from './fixtures.ts';
import { FOLLOW_SCRIPT } from './follow-script.ts';
import type { AnswerPageView, SurfaceView } from './view.ts';

const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';
const render = (view: AnswerPageView) => renderAnswerPage(view, NONCE);

/** The HTML of one element found by its id attribute (start tag only). */
function tagWithId(html: string, id: string): string {
  const match = new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html);
  if (!match) throw new Error(`no element with id ${id}`);
  return match[0];
}

describe('the open form', () => {
  it('renders the title, description, record and the editable initial value of the seed sample', () => {
    const html = render(openView(commitSurface()));
    expect(html.startsWith('<!doctype html><html lang="en" dir="ltr">')).toBe(true);
    expect(html).toContain('<h1>Approve this commit?</h1>');
    expect(html).toContain('<p class="lead">The tests pass. Edit the message if you like.</p>');
    expect(html).toContain('<p class="caption">What changed (sample)</p>');
    expect(html).toContain('<dt>src/greeting.js</dt><dd>Greeting now uses the user&#39;s first name</dd>');
    // The textarea gets one leading newline, which the HTML parser drops, so the value is exact.
    expect(html).toContain(
      '<textarea id="f-message" name="message" rows="6" required="" dir="auto">\nGreet users by first name\n\nAdds a test for the new greeting.</textarea>',
    );
    expect(html).toContain('<label for="f-message">Commit message<span class="req"> (required)</span></label>');
  });

  it('says before the choice that a passkey confirmation follows, on a passkey form only', () => {
    const line = 'your device asks for your passkey to confirm this answer';
    expect(render(openView(commitSurface(), { passkeyNext: true }))).toContain(line);
    expect(render(openView(commitSurface()))).not.toContain(line);
  });

  it('posts to its target with the CSRF token and the revision in hidden fields', () => {
    const html = render(openView(commitSurface(), { revision: 7, form: { action: '/s/abc', csrf: 'tok"en' } }));
    expect(html).toContain('<form method="post" action="/s/abc">');
    expect(html).toContain('<input type="hidden" name="_csrf" value="tok&quot;en"/>');
    expect(html).toContain('<input type="hidden" name="_revision" value="7"/>');
  });

  it('shows approve as the primary button first and reject as secondary, without browser validation', () => {
    const surface = commitSurface();
    const html = render(openView({ ...surface, actions: [...(surface.actions ?? [])].reverse() }));
    const approve = html.indexOf('value="approve"');
    const stop = html.indexOf('value="stop"');
    expect(approve).toBeGreaterThan(0);
    expect(stop).toBeGreaterThan(approve);
    expect(html).toContain('<button type="submit" name="_action" value="approve" class="primary">Approve and commit</button>');
    expect(html).toContain('<button type="submit" name="_action" value="stop" class="secondary" formnovalidate="">Stop</button>');
  });

  it('puts sess_ask’s submit label on its button, and "Submit" when there are no actions', () => {
    const html = render(openView(everyFieldSurface()));
    expect(html).toContain('value="submit" class="primary">Plan it</button>');
    const bare: SurfaceView = { mode: 'interactive', title: 'Q', source: { kind: 'sess_surface', components: [] } };
    expect(render(openView(bare))).toContain('value="submit" class="primary">Submit</button>');
  });

  it('keeps a text block’s line breaks and splits it into paragraphs on blank lines', () => {
    const html = render(openView(everyFieldSurface()));
    expect(html).toContain('<h2>About you</h2>');
    expect(html).toContain(
      '<div class="text"><p class="pre">First line\nsecond line</p><p class="pre">A new paragraph.</p></div>',
    );
  });

  it('renders each field type as its control with its initial value', () => {
    const html = render(openView(everyFieldSurface()));
    expect(tagWithId(html, 'f-name')).toBe(
      '<input type="text" id="f-name" name="name" value="Ada" required="" autocomplete="off" dir="auto"/>',
    );
    expect(tagWithId(html, 'f-email')).toBe('<input type="email" id="f-email" name="email" value="" autocomplete="off"/>');
    expect(tagWithId(html, 'f-budget')).toBe(
      '<input type="text" id="f-budget" name="budget" value="250.5" inputmode="decimal" autocomplete="off" required="" aria-describedby="f-budget-format"/>',
    );
    expect(tagWithId(html, 'f-nights')).toBe(
      '<input type="text" id="f-nights" name="nights" value="2" inputmode="numeric" autocomplete="off" required="" aria-describedby="f-nights-format"/>',
    );
    expect(tagWithId(html, 'f-pets')).toBe('<input type="checkbox" id="f-pets" name="pets" value="on" checked=""/>');
  });

  it('shows a choice of up to five options as radio buttons, labels falling back to the option ID', () => {
    const html = render(openView(everyFieldSurface()));
    expect(html).toContain('<legend>Where to?<span class="req"> (required)</span></legend>');
    expect(tagWithId(html, 'f-place')).toBe('<input type="radio" id="f-place" name="place" value="beach" required=""/>');
    expect(tagWithId(html, 'f-place-1')).toBe(
      '<input type="radio" id="f-place-1" name="place" value="mountains" checked="" required=""/>',
    );
    expect(html).toContain('<label for="f-place">Beach</label>');
    expect(html).toContain('<label for="f-place-2">city</label>');
  });

  it('shows a choice of more than five options as a select with an empty first option', () => {
    const html = render(openView(everyFieldSurface()));
    expect(tagWithId(html, 'f-month')).toBe('<select id="f-month" name="month" required="">');
    expect(html).toContain(
      '<option value="" selected="">Choose…</option><option value="jan">January</option><option value="feb">February</option><option value="mar">mar</option>',
    );
  });

  it('shows a multi-choice as checkboxes under a legend, with the initial choices checked', () => {
    const html = render(openView(everyFieldSurface()));
    expect(html).toContain('<fieldset class="field" aria-describedby="f-extras-help"><legend>Extras</legend>');
    expect(tagWithId(html, 'f-extras')).toBe('<input type="checkbox" id="f-extras" name="extras" value="bike"/>');
    expect(tagWithId(html, 'f-extras-1')).toBe('<input type="checkbox" id="f-extras-1" name="extras" value="boat" checked=""/>');
  });

  it('shows a 1-5 rating as five radio buttons inside their labels', () => {
    const html = render(openView(everyFieldSurface()));
    for (const [index, value] of ['1', '2', '3', '4', '5'].entries()) {
      const id = index === 0 ? 'f-mood' : `f-mood-${index}`;
      expect(html).toContain(
        `<label for="${id}"><input type="radio" id="${id}" name="mood" value="${value}" required=""/><span>${value}</span></label>`,
      );
    }
    expect(html).toContain('<div class="rating">');
  });

  it('links help text to its control with aria-describedby', () => {
    const html = render(openView(everyFieldSurface()));
    expect(html).toContain('<p class="hint" id="f-notes-help">Anything we should know.</p>');
    expect(tagWithId(html, 'f-notes')).toBe(
      '<textarea id="f-notes" name="notes" rows="6" dir="auto" aria-describedby="f-notes-help">',
    );
  });

  it('marks required fields, and only those', () => {
    const html = render(openView(everyFieldSurface()));
    expect(html).toContain('<label for="f-name">Your name<span class="req"> (required)</span></label>');
    expect(html).toContain('<label for="f-email">Email</label>');
    expect(html).toContain('<label for="f-pets">Bringing a pet</label>');
  });

  it('says how long the link stays open when it knows the time', () => {
    const now = new Date('2030-01-01T10:00:00Z');
    const at = (ms: number) => render(openView(commitSurface(), { now, expiresAt: new Date(now.getTime() + ms) }));
    expect(at(30_000)).toContain('This link closes in less than a minute.');
    expect(at(60_000)).toContain('This link closes in about 1 minute.');
    expect(at(3 * 3600_000)).toContain('This link closes in about 3 hours.');
    expect(at(5 * 86400_000)).toContain('This link closes in about 5 days.');
    expect(render(openView(commitSurface()))).not.toContain('closes in');
  });
});

describe('inline errors after a refused post', () => {
  const posted = { name: '', budget: 'lots', place: 'city', extras: ['bike', 'car'], notes: 'a\nb' };
  const errors = [
    { field: null, code: 'unknown_action', message: 'That button is not on this form. Reload the page and try again.' },
    { field: 'name', code: 'required', message: 'Answer this to continue.' },
    { field: 'budget', code: 'type', message: 'Enter a number.' },
    { field: 'mood', code: 'required', message: 'Answer this to continue.' },
    { field: 'ghost', code: 'unknown_field', message: 'This form has no such field. Reload the page and try again.' },
  ];
  const html = render(openView(everyFieldSurface(), { posted, errors }));

  it('re-renders the person’s values, not the initial ones', () => {
    expect(tagWithId(html, 'f-name')).toContain('value=""');
    expect(tagWithId(html, 'f-budget')).toContain('value="lots"');
    expect(tagWithId(html, 'f-place-2')).toContain('checked=""');
    expect(tagWithId(html, 'f-place-1')).not.toContain('checked');
    expect(tagWithId(html, 'f-extras')).toContain('checked=""');
    expect(tagWithId(html, 'f-extras-1')).not.toContain('checked');
    expect(html).toContain('name="notes" rows="6" dir="auto" aria-describedby="f-notes-help">\na\nb</textarea>');
    // A checkbox that was not posted was unchecked by the person.
    expect(tagWithId(html, 'f-pets')).not.toContain('checked');
  });

  it('marks each invalid control with aria-invalid and links its message', () => {
    expect(tagWithId(html, 'f-name')).toContain('aria-describedby="f-name-error" aria-invalid="true"');
    expect(tagWithId(html, 'f-budget')).toContain('aria-describedby="f-budget-format f-budget-error" aria-invalid="true"');
    expect(html).toContain(
      '<p class="error" id="f-budget-error"><span class="visually-hidden">Error: </span>Enter a number.</p>',
    );
    expect(html).toContain('<fieldset class="field invalid" aria-describedby="f-mood-error">');
    expect(tagWithId(html, 'f-mood-3')).toContain('aria-invalid="true"');
    expect(tagWithId(html, 'f-email')).not.toContain('aria-invalid');
  });

  it('lists every problem in an alert above the form, field problems linked to their field', () => {
    expect(html).toContain(
      '<div class="banner error" role="alert" id="error-summary" tabindex="-1" aria-labelledby="error-summary-heading"><h2 class="status" id="error-summary-heading">There is a problem</h2>',
    );
    expect(html).toContain('<li>That button is not on this form. Reload the page and try again.</li>');
    expect(html).toContain('<li><a href="#f-name">Your name: Answer this to continue.</a></li>');
    expect(html).toContain('<li>This form has no such field. Reload the page and try again.</li>');
    expect(html).toContain('<title>Error: Plan the trip · Sess</title>');
  });

  it('keeps help and error together in aria-describedby', () => {
    const withHelp = render(
      openView(everyFieldSurface(), { posted: {}, errors: [{ field: 'notes', code: 'too_long', message: 'Too long.' }] }),
    );
    expect(tagWithId(withHelp, 'f-notes')).toContain('aria-describedby="f-notes-help f-notes-error" aria-invalid="true"');
  });
});

describe('states', () => {
  it('answered: "Sent — waiting for the next step", a no-script refresh link and the one nonce’d script', () => {
    const html = render({ state: 'answered', title: 'Approve this commit?', revision: 3, pagePath: '/s/tok' });
    expect(html).toContain('Sent — waiting for the next step</h1>');
    expect(html).toContain('<p class="context">Approve this commit?</p>');
    expect(html).toContain('data-follow-revision="3"');
    expect(html).toContain('<a class="button secondary wide" href="/s/tok">Check for the next step</a>');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${NONCE}">${TIME_ZONE_SCRIPT}${FOLLOW_SCRIPT}</script>`);
  });

  it.each([
    ['completed', 'Done'],
    ['withdrawn', 'The question was withdrawn'],
    ['expired', 'This link has closed'],
  ] as const)('%s: says "%s" and carries no form and no script', (state, heading) => {
    const html = render({ state, title: 'Approve this commit?' });
    expect(html).toContain(`${heading}</h1>`);
    expect(html).not.toContain('<form');
    expect(html).not.toContain('<script');
  });

  it('an Ask that was decided: "Already decided" with the outcome on a page not answered, the outcome beside an answer, none on the landing\'s Start', () => {
    const notAnswered = render({ state: 'expired', title: 'Ship the release?', decided: 'rejected' });
    expect(notAnswered).toContain('<title>Already decided · Sess</title>');
    expect(notAnswered).toContain('Already decided</h1>');
    expect(notAnswered).toContain('This was decided: rejected. Your answer is no longer needed');
    expect(notAnswered).not.toContain('<form');
    expect(render({ state: 'completed', title: 'Ship the release?', decided: 'approved' })).toContain(
      '<p>This was decided: approved.</p>',
    );
    const landing = render({ state: 'ask', title: 'Ship the release?', closed: 'closed', decided: 'approved' });
    expect(landing).toContain('This was decided: approved. This question takes no more answers.');
    expect(landing).not.toContain('<form');
  });

  it('lapsed and extendable: an "Ask for more time" button posting with its CSRF token', () => {
    const html = render({ state: 'lapsed', title: 'Q', extend: { action: '/s/tok/extend', csrf: 'x' } });
    expect(html).toContain('The time to answer ran out</h1>');
    expect(html).toContain(
      '<form method="post" action="/s/tok/extend" class="actions"><input type="hidden" name="_csrf" value="x"/><button type="submit" class="primary">Ask for more time</button></form>',
    );
  });

  it('lapsed without extension: closed, no button', () => {
    const html = render({ state: 'lapsed', title: 'Q' });
    expect(html).not.toContain('<form');
    expect(html).toContain('takes no more answers');
  });

  it('an Ask’s shared link: a Start button while people can still start, none once it is full', () => {
    const open = render({
      state: 'ask',
      title: 'Where to?',
      description: 'Team trip',
      start: { action: '/s/a/start', csrf: 'y' },
    });
    expect(open).toContain('<h1>Where to?</h1>');
    expect(open).toContain('<button type="submit" class="primary">Start</button>');
    expect(open).toContain('action="/s/a/start"');
    const closed = render({ state: 'ask', title: 'Where to?', closed: 'closed', notice: 'Enough people have answered.' });
    expect(closed).not.toContain('<form');
    expect(closed).toContain('This question takes no more answers.');
    expect(closed).toContain('Enough people have answered.');
    const full = render({ state: 'ask', title: 'Where to?', closed: 'full', pagePath: '/s/a' });
    expect(full).not.toContain('<form');
    expect(full).toContain('Every place is taken right now.');
    // "Try again later" comes with the way to do it: the page again, without JavaScript.
    expect(full).toContain('<a class="button wide" href="/s/a">Try again</a>');
    expect(render({ state: 'ask', title: 'Where to?', closed: 'closed', pagePath: '/s/a' })).not.toContain('Try again');
  });

  it('an open form follows its session: the one nonce’d script, its markers and an empty notice region', () => {
    const html = render(openView(commitSurface(), { revision: 4 }));
    expect(html).toContain(`<script nonce="${NONCE}">${TIME_ZONE_SCRIPT}${FOLLOW_SCRIPT}</script>`);
    expect(html).toContain(
      '<div class="card" data-follow-revision="4" data-follow-shown="4" data-follow-state="open" data-follow-keep="" data-follow-kind="interaction" data-follow-words=',
    );
    expect(html).toContain('<div class="follow-notice" data-follow-notice="" role="status" aria-live="polite"></div>');
    expect(render(openView(commitSurface(), { respondent: true }))).toContain('data-follow-kind="respondent"');
  });

  it('not found: a plain page that names nothing', () => {
    const html = render({ state: 'not_found' });
    expect(html).toContain('There is nothing here</h1>');
    expect(html).not.toContain('<form');
  });

  it('refused (CSRF): says nothing was sent and links to the page', () => {
    const html = render({ state: 'refused', pagePath: '/s/tok' });
    expect(html).toContain('This page was out of date</h1>');
    expect(html).toContain('<a class="button" href="/s/tok">Open the page again</a>');
  });

  it('too large: says nothing was sent', () => {
    const html = render({ state: 'too_large', pagePath: '/s/tok' });
    expect(html).toContain('That was too much to send</h1>');
    expect(html).toContain('href="/s/tok"');
  });

  it('unavailable: a generic page', () => {
    expect(render({ state: 'unavailable' })).toContain('Something went wrong on our side</h1>');
  });
});

/** A surface carrying `text` in every slot an agent can fill. */
function hostileSurface(text: string): SurfaceView {
  const ids = ['a', 'b', 'c', 'd', 'e', 'f'].map((letter) => `${letter}${text}`);
  return {
    mode: 'interactive',
    title: text,
    description: text,
    source: {
      kind: 'sess_surface',
      components: [
        { type: 'heading', text },
        { type: 'text', text },
        { type: 'record', label: text, fields: { [text]: text, key: text } },
        { type: 'field', name: 'plain', label: text, description: text, schema: { type: 'string' }, value: text },
        { type: 'field', name: 'long', label: text, multiline: true, schema: { type: 'string' }, value: text },
        {
          type: 'field',
          name: 'radio',
          label: text,
          schema: { type: 'string', enum: [text], option_labels: [text] },
          value: text,
        },
        { type: 'field', name: 'pick', label: text, schema: { type: 'string', enum: ids }, value: ids[0] },
        {
          type: 'field',
          name: 'many',
          label: text,
          schema: { type: 'array', items: { type: 'string', enum: ids.slice(0, 3), option_labels: [text] } },
        },
        { type: 'field', name: 'yes', label: text, description: text, schema: { type: 'boolean' } },
      ],
    },
    actions: [
      { id: 'go', label: text, intent: 'approve' },
      { id: 'no', label: text, intent: 'reject' },
    ],
  };
}

/** The person's own answer to the hostile surface, holding the text in every value. */
function hostileAnswer(text: string) {
  return {
    surface: hostileSurface(text),
    actionId: 'go',
    values: { plain: text, long: text, radio: text, pick: text, many: [text], yes: true },
    receiptPath: '/s/tok/receipt',
  };
}

function hostileViews(text: string): AnswerPageView[] {
  return [
    openView(hostileSurface(text)),
    openView(hostileSurface(text), {
      posted: { plain: text, long: text, radio: text, pick: text, many: [text] },
      errors: [
        { field: 'plain', code: 'type', message: text },
        { field: null, code: 'unknown_action', message: text },
      ],
    }),
    { state: 'answered', title: text, revision: 1, pagePath: '/s/tok', notice: text },
    { state: 'answered', title: text, revision: 1, pagePath: '/s/tok', answer: hostileAnswer(text), alreadyAnswered: true },
    { state: 'completed', title: text, notice: text },
    { state: 'completed', title: text, answer: hostileAnswer(text) },
    { state: 'withdrawn', title: text },
    { state: 'expired', title: text },
    { state: 'lapsed', title: text, extend: { action: '/s/tok/extend', csrf: 'c' } },
    { state: 'ask', title: text, description: text, start: { action: '/s/tok/start', csrf: 'c' }, notice: text },
  ];
}

/** What must never appear raw in a page, whatever the agent sent. */
function expectNoInjectedMarkup(html: string, view: AnswerPageView) {
  expect(html).not.toMatch(/<(?:img|svg)\b/i);
  // Inside a tag, with the (always double-quoted) attribute values taken out, no event handler is left.
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\son[a-z]+=/i);
  expect(html).not.toMatch(/href="\s*javascript:/i);
  expect(html).not.toMatch(/<\/textarea><script/i);
  expect(html.match(/<script/g) ?? []).toHaveLength(view.state === 'answered' || view.state === 'open' ? 1 : 0);
  expect(html.match(/<\/title>/g)).toHaveLength(1);
  expect(html.match(/<textarea/g)?.length ?? 0).toBe(html.match(/<\/textarea>/g)?.length ?? 0);
}

describe('escaping: every agent-supplied string', () => {
  it.each(HOSTILE_STRINGS)('%s is shown as text in every slot of every state', (text) => {
    for (const view of hostileViews(text)) {
      const html = render(view);
      expectNoInjectedMarkup(html, view);
      expect(html).toContain(escaped(text));
    }
  });

  it('holds for arbitrary strings (property)', () => {
    const piece = fc.constantFrom('<', '>', '"', "'", '&', 'script', 'javascript:', '</textarea>', ' onerror=', 'img', '\n', 'x');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        const view = openView(hostileSurface(text));
        const html = render(view);
        expectNoInjectedMarkup(html, view);
        expect(html).toContain(`<h1>${escaped(text)}</h1>`);
      }),
      { numRuns: 300 },
    );
  });
});

/** Every slot a person reads on the form, each with its own spoof (an override left open). */
function spoofSurface(): { surface: SurfaceView; slots: string[]; initialValues: string[] } {
  const slots: string[] = [];
  const say = (slot: string) => {
    const text = spoof(slot);
    slots.push(text);
    return text;
  };
  const initialValues = [spoof('text-value'), spoof('textarea-value')];
  const surface: SurfaceView = {
    mode: 'interactive',
    title: say('title'),
    description: say('description'),
    source: {
      kind: 'sess_surface',
      components: [
        { type: 'heading', text: say('heading') },
        { type: 'text', text: `${say('text-1')}\n\n${say('text-2')}` },
        { type: 'record', label: say('record-label'), fields: { [say('record-key')]: say('record-value') } },
        {
          type: 'field',
          name: 'plain',
          label: say('text-label'),
          description: say('text-help'),
          schema: { type: 'string' },
          value: initialValues[0],
        },
        {
          type: 'field',
          name: 'long',
          label: say('textarea-label'),
          multiline: true,
          schema: { type: 'string' },
          value: initialValues[1],
        },
        { type: 'field', name: 'mail', label: say('email-label'), required: false, schema: { type: 'string', format: 'email' } },
        { type: 'field', name: 'count', label: say('number-label'), schema: { type: 'integer' } },
        {
          type: 'field',
          name: 'yes',
          label: say('boolean-label'),
          description: say('boolean-help'),
          schema: { type: 'boolean' },
        },
        {
          type: 'field',
          name: 'radio',
          label: say('radio-label'),
          schema: { type: 'string', enum: ['r1', say('radio-id')], option_labels: [say('radio-option')] },
        },
        {
          type: 'field',
          name: 'pick',
          label: say('select-label'),
          schema: {
            type: 'string',
            enum: ['p1', 'p2', 'p3', 'p4', 'p5', say('select-id')],
            option_labels: [say('select-option')],
          },
        },
        {
          type: 'field',
          name: 'many',
          label: say('checkbox-label'),
          schema: {
            type: 'array',
            items: { type: 'string', enum: ['m1', say('checkbox-id')], option_labels: [say('checkbox-option')] },
          },
        },
        { type: 'field', name: 'mood', label: say('rating-label'), schema: { type: 'integer', minimum: 1, maximum: 5 } },
      ],
    },
    actions: [
      { id: 'go', label: say('approve-button'), intent: 'approve' },
      { id: 'no', label: say('reject-button'), intent: 'reject' },
    ],
  };
  return { surface, slots: [...slots, ...initialValues], initialValues };
}

describe('bidi isolation: nothing an agent or a person wrote can reorder the page around it', () => {
  it('isolates every agent-written slot of the form, and the document title', () => {
    const { surface, slots } = spoofSurface();
    const html = render(openView(surface));
    expectIsolated(html, slots);
    expect(html).toContain(`<title>\u2068${escaped(spoof('title'))}\u2069 · Sess</title>`);
  });

  it('keeps Sess’s " (required)" and "(choose at least one)" outside the label’s isolate', () => {
    const html = render(openView(spoofSurface().surface));
    const label = (slot: string) => `<bdi>${escaped(spoof(slot))}</bdi>`;
    expect(html).toContain(`<label for="f-plain">${label('text-label')}<span class="req"> (required)</span></label>`);
    expect(html).toContain(`<legend>${label('radio-label')}<span class="req"> (required)</span></legend>`);
    expect(html).toContain(`<legend>${label('checkbox-label')}<span class="req"> (choose at least one)</span></legend>`);
  });

  it('gives an element that holds only the agent’s text its own direction (dir="auto")', () => {
    const html = render(openView(spoofSurface().surface));
    expect(html).toContain(`<h1 dir="auto">${escaped(spoof('title'))}</h1>`);
    expect(html).toContain(
      `<dt dir="auto">${escaped(spoof('record-key'))}</dt><dd dir="auto">${escaped(spoof('record-value'))}</dd>`,
    );
    expect(html).toContain(`value="go" class="primary" dir="auto">${escaped(spoof('approve-button'))}</button>`);
  });

  it('types free text right to left when it is (dir="auto" on every text box, whatever its value)', () => {
    const html = render(openView(everyFieldSurface()));
    for (const name of ['name', 'notes']) expect(tagWithId(html, `f-${name}`)).toContain(' dir="auto"');
    // E-mail addresses and numbers stay left-to-right.
    for (const name of ['email', 'budget']) expect(tagWithId(html, `f-${name}`)).not.toContain(' dir=');
  });

  it('isolates the person’s values and the labels in the error summary after a refused post', () => {
    const { surface, slots, initialValues } = spoofSurface();
    const posted = { plain: spoof('posted-text'), long: spoof('posted-textarea'), mail: spoof('posted-email') };
    const errors = ['plain', 'radio', 'many'].map((field) => ({ field, code: 'required', message: 'Answer this to continue.' }));
    const html = render(openView(surface, { posted, errors }));
    expectIsolated(html, [...slots.filter((slot) => !initialValues.includes(slot)), ...Object.values(posted)]);
    expect(html).toContain(`<a href="#f-plain"><bdi>${escaped(spoof('text-label'))}</bdi>: Answer this to continue.</a>`);
    expect(html).toContain(`<title>Error: \u2068${escaped(spoof('title'))}\u2069 · Sess</title>`);
  });

  it.each([
    ['answered', { state: 'answered', title: spoof('title'), revision: 1, pagePath: '/s/tok' }],
    ['completed', { state: 'completed', title: spoof('title') }],
    ['withdrawn', { state: 'withdrawn', title: spoof('title') }],
    ['expired', { state: 'expired', title: spoof('title') }],
    ['lapsed', { state: 'lapsed', title: spoof('title'), extend: { action: '/s/tok/extend', csrf: 'c' } }],
  ] satisfies [string, AnswerPageView][])('isolates the title on the %s page', (_state, view) => {
    expectIsolated(render(view), [spoof('title')]);
  });

  it('isolates an Ask’s title and details on its start page', () => {
    const view: AnswerPageView = {
      state: 'ask',
      title: spoof('ask-title'),
      description: spoof('ask-details'),
      start: { action: '/s/a/start', csrf: 'c' },
    };
    expectIsolated(render(view), [spoof('ask-title'), spoof('ask-details')]);
  });

  it('drops a stray PDI from a label, which would otherwise end the isolate early and let its override out', () => {
    const field = { type: 'field', name: 'x', label: 'Name\u2069\u202e', schema: { type: 'string' } } as const;
    const html = render(openView({ mode: 'interactive', title: 'Q', source: { kind: 'sess_surface', components: [field] } }));
    expect(html).toContain('<label for="f-x"><bdi>Name\u202e</bdi><span class="req"> (required)</span></label>');
  });
});

describe('the passkey confirm step', () => {
  const confirm = (refusal?: string): AnswerPageView => ({
    state: 'passkey_confirm',
    surface: commitSurface(),
    revision: 2,
    form: { action: '/s/abc', csrf: 'tok"en' },
    answer: { actionId: 'approve', values: { message: 'Ship it' } },
    posted: { message: 'Ship it', tags: ['a', 'b"'] },
    actionId: 'approve',
    options: { challenge: 'Y2hhbGxlbmdl', allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }] },
    refusal,
  });

  it('carries the same values, button, CSRF token and revision hidden, and the request options; nothing to retype', () => {
    const html = render(confirm());
    expect(html).toContain('<h1>Confirm with your passkey</h1>');
    expect(html).toContain('<input type="hidden" name="_csrf" value="tok&quot;en"/>');
    expect(html).toContain('<input type="hidden" name="_revision" value="2"/>');
    expect(html).toContain('<input type="hidden" name="_action" value="approve"/>');
    expect(html).toContain('<input type="hidden" name="_passkey" value=""/>');
    expect(html).toContain('<input type="hidden" name="message" value="Ship it"/>');
    expect(html).toContain('<input type="hidden" name="tags" value="a"/><input type="hidden" name="tags" value="b&quot;"/>');
    expect(tagWithId(html, 'passkey-confirm')).toContain('data-options="{&quot;challenge&quot;:&quot;Y2hhbGxlbmdl&quot;');
    // The button waits for the script (WebAuthn); without it the page says why.
    expect(html).toMatch(/<button type="button" class="primary" data-passkey="" hidden="">/);
    expect(html).toContain('needs JavaScript and a browser that supports passkeys');
    expect(html).toContain(`<script nonce="${NONCE}">`);
    expect(html).toContain('navigator.credentials.get');
    expect(html).not.toContain(FOLLOW_SCRIPT);
    expect(html).not.toContain('role="alert"');
  });

  it('says why the last confirmation was refused, and that nothing was sent', () => {
    const html = render(confirm('other_user_credential'));
    expect(html).toContain('<title>Error: Confirm with your passkey: Approve this commit? · Sess</title>');
    expect(html).toContain('Your answer was not sent');
    expect(html).toContain('This passkey belongs to another account.');
  });

  it('an account without a passkey is sent to add one', () => {
    const html = render({ state: 'no_passkey', accountPath: '/account/passkeys' });
    expect(html).toContain('Add a passkey to answer');
    expect(html).toContain('<a class="button" href="/account/passkeys">Add a passkey</a>');
  });
});
