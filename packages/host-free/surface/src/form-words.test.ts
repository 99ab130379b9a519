import { describe, expect, it } from 'vitest';
import { checkAskArguments, parseAskArguments } from './ask.ts';
import { durationWords } from './form-words.ts';
import { resolveActions } from './schema.ts';
import { toSurface } from './to-surface.ts';
import { checkSurfaceInput } from './validate.ts';

const people = ['ana@example.com', 'ben@example.com', 'cem@example.com'];

function deciding(locale?: string) {
  return toSurface(
    parseAskArguments({
      question: 'Ship it?',
      fields: [{ name: 'note', type: 'text', label: 'Note' }],
      respondents: { people, decide: 'quorum', quorum: 2, name: true, escalate: { after: 5400, to: ['dan@example.com'] } },
      ...(locale === undefined ? {} : { locale }),
    }),
  );
}

describe("a form's locale", () => {
  it('writes Sess’s own words of a German form in German, keeping the ids and intents the count reads', () => {
    const surface = deciding('de-AT');
    expect(surface.locale).toBe('de-AT');
    const texts = surface.source.components.flatMap((c) => (c.type === 'text' ? [c.text] : []));
    expect(texts).toEqual([
      'So wird entschieden: Angenommen, wenn 2 Personen von 3 zustimmen; abgelehnt, wenn 2 Personen ablehnen.',
      'Ist dies 1 Stunde, 30 Minuten nach dem Versand noch offen, wird eine Vertretung ebenfalls gefragt und darf anstelle aller antworten, die noch nicht geantwortet haben.',
    ]);
    expect(surface.source.components.find((c) => c.type === 'field')).toMatchObject({ label: 'Ihr Name' });
    expect(resolveActions(surface)).toEqual([
      { id: 'approve', label: 'Zustimmen', intent: 'approve' },
      { id: 'reject', label: 'Ablehnen', intent: 'reject' },
    ]);
  });

  it('uses Slovenian plural forms (one, two, few, other)', () => {
    const texts = deciding('sl').source.components.flatMap((c) => (c.type === 'text' ? [c.text] : []));
    expect(texts[0]).toBe('Kako se odloča: odobreno, ko odobrita 2 osebi od 3; zavrnjeno, ko zavrneta 2 osebi.');
    expect(durationWords('sl', 2 * 86_400 + 3 * 3600)).toBe('2 dneva in 3 ure');
  });

  it('falls back to English words for a language Sess does not write, and keeps the tag', () => {
    const surface = deciding('pt-BR');
    expect(surface.locale).toBe('pt-BR');
    expect(resolveActions(surface).map((action) => action.label)).toEqual(['Approve', 'Reject']);
    expect(deciding().source.components.find((c) => c.type === 'field')).toMatchObject({ label: 'Your name' });
  });

  it('refuses a tag that is not BCP 47 at its pointer, on sess_ask and on a Surface', () => {
    const ask = checkAskArguments({ question: 'Q?', fields: [{ name: 'a', type: 'text', label: 'A' }], locale: 'not a tag' });
    expect(ask.ok).toBe(false);
    expect(ask.ok ? [] : ask.issues.map((issue) => issue.field)).toEqual(['/locale']);
    const surface = checkSurfaceInput({
      mode: 'interactive',
      title: 'T',
      locale: 'x'.repeat(36),
      source: { kind: 'sess_surface', components: [] },
    });
    expect(surface.ok ? [] : surface.issues.map((issue) => [issue.field, issue.limit])).toEqual([['/locale', 35]]);
  });
});
