/*
 * Surfaces for the answer page's tests, screenshots and benchmark (not exported from the
 * package). Shaped like @sess/surface's Surface; each call returns a fresh object.
 */
import type { OpenPageView, SurfaceView } from './view.ts';

/** The seed's sample interaction (docs/contract/sess-mcp-readme.md, "First interaction"). */
export function commitSurface(): SurfaceView {
  return {
    mode: 'interactive',
    title: 'Approve this commit?',
    description: 'The tests pass. Edit the message if you like.',
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
          schema: { type: 'string' },
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

/** One field of every kind the page renders, with help and initial values. */
export function everyFieldSurface(): SurfaceView {
  return {
    mode: 'interactive',
    title: 'Plan the trip',
    description: 'A few questions before I book.',
    source: {
      kind: 'sess_surface',
      components: [
        { type: 'heading', text: 'About you' },
        { type: 'text', text: 'First line\nsecond line\n\nA new paragraph.' },
        { type: 'field', name: 'name', label: 'Your name', schema: { type: 'string' }, value: 'Ada' },
        { type: 'field', name: 'email', label: 'Email', schema: { type: 'string', format: 'email' }, required: false },
        {
          type: 'field',
          name: 'notes',
          label: 'Notes',
          multiline: true,
          description: 'Anything we should know.',
          required: false,
          schema: { type: 'string' },
        },
        { type: 'field', name: 'budget', label: 'Budget (EUR)', schema: { type: 'number', minimum: 0 }, value: 250.5 },
        { type: 'field', name: 'nights', label: 'Nights', schema: { type: 'integer', minimum: 1, maximum: 14 }, value: 2 },
        { type: 'field', name: 'pets', label: 'Bringing a pet', schema: { type: 'boolean' }, value: true },
        {
          type: 'field',
          name: 'place',
          label: 'Where to?',
          schema: { type: 'string', enum: ['beach', 'mountains', 'city'], option_labels: ['Beach', 'Mountains'] },
          value: 'mountains',
        },
        {
          type: 'field',
          name: 'month',
          label: 'Month',
          schema: { type: 'string', enum: ['jan', 'feb', 'mar', 'apr', 'may', 'jun'], option_labels: ['January', 'February'] },
        },
        {
          type: 'field',
          name: 'extras',
          label: 'Extras',
          description: 'Choose any.',
          required: false,
          schema: {
            type: 'array',
            items: { type: 'string', enum: ['bike', 'boat', 'car'], option_labels: ['Bike', 'Boat', 'Car'] },
          },
          value: ['boat'],
        },
        { type: 'field', name: 'mood', label: 'How excited are you?', schema: { type: 'integer', minimum: 1, maximum: 5 } },
      ],
    },
    actions: [{ id: 'submit', label: 'Plan it', intent: 'submit' }],
  };
}

/** An open page for a surface, with fixed form target and revision. */
export function openView(surface: SurfaceView, extra: Partial<OpenPageView> = {}): OpenPageView {
  return { state: 'open', surface, revision: 1, form: { action: '/s/tok', csrf: 'csrf-token' }, ...extra };
}

/** Strings that would be markup, attribute breakouts or script URLs if they were not escaped. */
export const HOSTILE_STRINGS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  'javascript:alert(1)',
  '</textarea><script>alert(1)</script>',
  '</title><script>alert(1)</script>',
  '&lt;b&gt; & "both" \'quotes\'',
] as const;
