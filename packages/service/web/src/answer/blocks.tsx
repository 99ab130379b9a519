import { textDir } from '../isolate.tsx';
import type { ComponentView } from './view.ts';

/** A section heading inside the form. */
export function HeadingBlock({ text }: { text: string }) {
  return <h2 dir={textDir(text)}>{text}</h2>;
}

/**
 * Plain text as paragraphs: a blank line starts a new paragraph, a single line break is kept
 * (`white-space: pre-wrap`). No Markdown, no links: the text is shown exactly as written.
 */
export function TextBlock({ text }: { text: string }) {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
    .filter((paragraph) => paragraph.trim() !== '');
  return (
    <div class="text">
      {paragraphs.map((paragraph) => (
        <p class="pre" dir={textDir(paragraph)}>
          {paragraph}
        </p>
      ))}
    </div>
  );
}

/** A record: its caption, then the key/value pairs as a description list, in order. */
export function RecordBlock({ label, fields }: { label: string; fields: Readonly<Record<string, string>> }) {
  return (
    <div class="record">
      <p class="caption" dir={textDir(label)}>
        {label}
      </p>
      <dl class="record pairs">
        {Object.entries(fields).map(([key, value]) => (
          <div class="pair">
            <dt dir={textDir(key)}>{key}</dt>
            <dd dir={textDir(value)}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Renders a non-field component (`lang` of the form's language on it when set); fields are the form's (they need values and errors). */
export function DisplayBlock({
  component,
  locale,
}: {
  component: Exclude<ComponentView, { type: 'field' }>;
  locale?: string | undefined;
}) {
  return locale ? (
    <div lang={locale}>
      <Block component={component} />
    </div>
  ) : (
    <Block component={component} />
  );
}

function Block({ component }: { component: Exclude<ComponentView, { type: 'field' }> }) {
  switch (component.type) {
    case 'heading':
      return <HeadingBlock text={component.text} />;
    case 'text':
      return <TextBlock text={component.text} />;
    case 'record':
      return <RecordBlock label={component.label} fields={component.fields} />;
  }
}
