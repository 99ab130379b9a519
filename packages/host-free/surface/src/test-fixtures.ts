/*
 * Builders for tests and benchmarks, at `@sess/surface/test-fixtures` (not part of the package's
 * main entry). Each call returns a fresh object, so a test may mutate what it gets.
 */
import type { AskArguments } from './ask-schema.ts';
import { ASK_FIELD_TYPES } from './ask-schema.ts';
import { jsonByteLength } from './guard.ts';
import type { Component, FieldComponent, Surface } from './schema.ts';

/** The seed's sample interaction (docs/contract/sess-mcp-readme.md, "First interaction"). */
export function sampleSurface(): Surface {
  return {
    mode: 'interactive',
    title: 'Approve this commit?',
    source: {
      kind: 'sess_surface',
      components: [
        {
          type: 'record',
          label: 'What changed (sample)',
          fields: {
            'src/greeting.js': "Greeting now uses the user's first name",
            'test/greeting.test.js': 'One new test for the first-name greeting',
          },
        },
        {
          type: 'field',
          name: 'message',
          label: 'Commit message',
          multiline: true,
          schema: { type: 'string', minLength: 1, maxLength: 2000 },
          value: 'Greet users by first name\n\nAdds a test for the new greeting.',
        },
      ],
    },
    actions: [
      { id: 'approve', label: 'Approve and commit', intent: 'approve' },
      { id: 'stop', label: 'Stop', intent: 'reject' },
    ],
  };
}

/** The seed's sess_ask example (the sess_ask tool description). */
export function askExample(): AskArguments {
  return {
    question: 'Where should we go on Saturday?',
    details: 'I will check the forecast and suggest a plan.',
    fields: [
      { name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] },
      { name: 'avoid', label: 'Anything to avoid?', type: 'text', required: false },
    ],
    submit_label: 'Plan it',
  };
}

/** A surface with one component, wrapped the way the tests need it most often. */
export function surfaceWith(...components: Component[]): Surface {
  return { mode: 'interactive', title: 'Check this', source: { kind: 'sess_surface', components } };
}

/** One field of each kind the schema subset has, cycling with `i`. */
export function fieldOfKind(i: number): FieldComponent {
  const name = `field_${i}`;
  switch (i % 7) {
    case 0:
      return {
        type: 'field',
        name,
        label: `Text ${i}`,
        description: 'One short hint.',
        multiline: true,
        schema: { type: 'string', maxLength: 500 },
        value: 'Draft',
      };
    case 1:
      return { type: 'field', name, label: `Code ${i}`, schema: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' }, value: 'ABC-12' };
    case 2:
      return {
        type: 'field',
        name,
        label: `Choice ${i}`,
        schema: { type: 'string', enum: ['beach', 'mountains', 'city'], option_labels: ['Beach', 'Mountains', 'City'] },
        value: 'city',
      };
    case 3:
      return {
        type: 'field',
        name,
        label: `Several ${i}`,
        schema: {
          type: 'array',
          items: { type: 'string', enum: ['a', 'b', 'c', 'd'], option_labels: ['Alpha', 'Bravo'] },
          maxItems: 3,
        },
        value: ['a', 'c'],
      };
    case 4:
      return {
        type: 'field',
        name,
        label: `Amount ${i}`,
        required: false,
        schema: { type: 'number', minimum: 0, maximum: 1000 },
        value: 12.5,
      };
    case 5:
      return { type: 'field', name, label: `Count ${i}`, schema: { type: 'integer', minimum: 1, maximum: 5 } };
    default:
      return { type: 'field', name, label: `Agree ${i}`, schema: { type: 'boolean' }, value: true };
  }
}

/** 24 fields, 5 actions, headings and a record: the largest form the rules allow, before padding. */
export function fullSurface(): Surface {
  const components: Component[] = [
    { type: 'heading', text: 'What changed' },
    { type: 'text', text: 'x' },
    {
      type: 'record',
      label: 'Files',
      fields: Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`src/module-${i}.ts`, `Changed the handler number ${i} to read its options once.`]),
      ),
    },
    { type: 'heading', text: 'Your answers' },
  ];
  for (let i = 0; i < 24; i++) components.push(fieldOfKind(i));
  return {
    mode: 'interactive',
    title: 'Approve this release?',
    description: 'Twenty-four checks before the release goes out. Edit what you need.',
    source: { kind: 'sess_surface', components },
    actions: [
      { id: 'approve', label: 'Approve', intent: 'approve' },
      { id: 'approve_later', label: 'Approve tonight', intent: 'approve' },
      { id: 'submit', label: 'Save answers', intent: 'submit' },
      { id: 'other', label: 'Ask me later', intent: 'other' },
      { id: 'stop', label: 'Stop', intent: 'reject' },
    ],
  };
}

/**
 * `fullSurface()` padded with plain-text paragraphs until `JSON.stringify` of it is exactly
 * `bytes` UTF-8 bytes. The second component (a one-character text) absorbs the last few bytes.
 */
export function surfaceOfBytes(bytes: number): Surface {
  const surface = fullSurface();
  const components = surface.source.components;
  const adjuster = components[1] as { type: 'text'; text: string };
  let size = jsonByteLength(surface);
  while (bytes - size > 64) {
    components.push({ type: 'text', text: 'p' });
    size = jsonByteLength(surface);
    const grow = Math.min(3999, bytes - size - 32);
    (components[components.length - 1] as { text: string }).text += 'p'.repeat(grow);
    size += grow;
  }
  adjuster.text += 'a'.repeat(bytes - size);
  if (jsonByteLength(surface) !== bytes) throw new Error(`surfaceOfBytes: could not reach ${bytes} bytes`);
  return surface;
}

/** A 12-field sess_ask call using every field type of the schema. */
export function fullAsk(): AskArguments {
  return {
    question: 'How did the trip go?',
    details: 'A few questions about the weekend, so that the next plan fits better.',
    fields: Array.from({ length: 12 }, (_, i) => {
      const type = ASK_FIELD_TYPES[i % ASK_FIELD_TYPES.length]!;
      const common = { name: `q${i}`, label: `Question ${i}`, help: 'Answer in a few words.' };
      switch (type) {
        case 'text':
          return { ...common, type, multiline: true, max_length: 500 };
        case 'number':
        case 'integer':
          return { ...common, type, min: 0, max: 100 };
        case 'choice':
        case 'multi_choice':
          return { ...common, type, options: ['Beach', 'Mountains', 'City', 'Lake'], required: false };
        default:
          return { ...common, type };
      }
    }),
    submit_label: 'Send',
    expires_in: 3600,
  };
}

/** A string of exactly `count` code points mixing astral emoji, combining marks and CJK, so UTF-16 units differ. */
export function codePoints(count: number): string {
  const units = ['😀', 'e', '\u0301', '𝄞', '中', '🇸', '🇮'];
  let out = '';
  for (let i = 0; i < count; i++) out += units[i % units.length];
  return out;
}
