/*
 * The repository's Markdown as a reader meets it: every table renders (a header, its separator,
 * rows of the same width, nothing splitting it), every relative link leads to a file and heading,
 * and every JavaScript or TypeScript example parses
 * as the ES module a reader pastes it into (a top-level `return` does not). esbuild parses; it is
 * what builds the packages.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Folders that hold no Markdown of ours: installs, builds, test output, data. */
const SKIP = new Set(['node_modules', 'dist', 'test-results', '.git', '.data', 'coverage']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return SKIP.has(entry.name) || entry.name.startsWith('.') ? [] : markdownFiles(join(dir, entry.name));
    return entry.name.endsWith('.md') ? [join(dir, entry.name)] : [];
  });
}

interface CodeBlock {
  lang: string;
  line: number;
  code: string;
}

/** The fenced code blocks, and the lines outside them (with their numbers, 1-based). */
function splitMarkdown(text: string): { blocks: CodeBlock[]; prose: { line: number; text: string }[] } {
  const blocks: CodeBlock[] = [];
  const prose: { line: number; text: string }[] = [];
  let open: { fence: string; lang: string; line: number; lines: string[] } | undefined;
  text.split('\n').forEach((raw, index) => {
    const fence = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(raw);
    if (open) {
      if (fence && fence[1]!.startsWith(open.fence) && raw.trim() === fence[1]) {
        blocks.push({ lang: open.lang, line: open.line, code: open.lines.join('\n') });
        open = undefined;
      } else open.lines.push(raw);
    } else if (fence) open = { fence: fence[1]!, lang: fence[2]!.toLowerCase(), line: index + 1, lines: [] };
    else prose.push({ line: index + 1, text: raw });
  });
  return { blocks, prose };
}

/** A row's cells as GFM splits them: on every `|` not escaped with a backslash (code spans too). */
function cells(row: string): string[] {
  const inner = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/);
}

const SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** What is wrong with the tables of one file, as `line: problem`. */
function tableProblems(text: string): string[] {
  const problems: string[] = [];
  const { prose } = splitMarkdown(text);
  let group: { line: number; text: string }[] = [];
  const check = () => {
    if (group.length === 0) return;
    const [header, separator, ...rows] = group;
    if (!separator || !SEPARATOR.test(separator.text)) {
      problems.push(`${header!.line}: table rows without a header and separator (a blank line or a paragraph splits a table)`);
    } else {
      const width = cells(header!.text).length;
      if (cells(separator.text).length !== width) problems.push(`${separator.line}: the separator has not ${width} columns`);
      for (const row of rows) {
        const count = cells(row.text).length;
        if (count !== width) problems.push(`${row.line}: ${count} cells in a table of ${width} columns`);
      }
    }
    group = [];
  };
  prose.forEach((entry, index) => {
    const previous = prose[index - 1];
    const contiguous = previous !== undefined && previous.line === entry.line - 1;
    if (entry.text.trimStart().startsWith('|')) {
      if (group.length > 0 && !contiguous) check();
      group.push(entry);
    } else check();
  });
  check();
  return problems;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (not `-` or `_`), spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text: line } of splitMarkdown(text).prose) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Relative links (and their #anchors, into Markdown) that lead nowhere, as `line: target`. */
function brokenLinks(path: string, text: string): string[] {
  const broken: string[] = [];
  for (const { line, text: prose } of splitMarkdown(text).prose) {
    // Code spans hold no links.
    for (const match of prose.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z]+:/i.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? path : join(dirname(path), decodeURIComponent(file));
      if (!existsSync(resolved)) {
        broken.push(`${line}: ${target}`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`${line}: ${target} (no such heading)`);
      }
    }
  }
  return broken;
}

const files = markdownFiles(ROOT).map((path) => ({ path, name: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

describe('the repository’s Markdown', () => {
  it('finds the README and the reference in docs/', () => {
    const names = files.map((file) => file.name);
    expect(names).toContain('README.md');
    expect(names).toContain(join('docs', 'routes.md'));
    expect(names).toContain(join('packages', 'host-free', 'client', 'README.md'));
  });

  it('tells a table split by a paragraph or a blank line, or with a row of another width', () => {
    const split = ['| A | B |', '| --- | --- |', '| 1 | 2 |', '', 'A paragraph.', '| 3 | 4 |'].join('\n');
    expect(tableProblems(split)).toEqual([
      '6: table rows without a header and separator (a blank line or a paragraph splits a table)',
    ]);
    expect(tableProblems('| A | B |\n| --- | --- |\n| 1 | 2 | 3 |')).toEqual(['3: 3 cells in a table of 2 columns']);
    expect(tableProblems('| A | B |\n| --- | --- |\n| `a \\| b` | 2 |\n\n```\n| not a table |\n```')).toEqual([]);
  });

  it.each(files.map((file) => [file.name, file.text] as const))('%s: every table renders', (_name, text) => {
    expect(tableProblems(text)).toEqual([]);
  });

  // docs/contract/ is a verbatim copy of the product contract: its links are the contract's own repository's.
  const linked = files.filter((file) => !file.name.startsWith(join('docs', 'contract')));
  it.each(linked.map((file) => [file.name, file] as const))(
    '%s: every relative link leads to a file (and heading)',
    (_name, file) => {
      expect(brokenLinks(file.path, file.text)).toEqual([]);
    },
  );

  const examples = files.flatMap((file) =>
    splitMarkdown(file.text)
      .blocks.filter((block) => ['js', 'javascript', 'mjs', 'ts', 'typescript'].includes(block.lang))
      .map((block) => [`${file.name}:${block.line}`, block] as const),
  );

  it('has examples to parse, and would refuse a top-level return', async () => {
    expect(examples.length).toBeGreaterThan(0);
    await expect(transform("import x from 'y';\nif (!x) return;\n", { loader: 'js', format: 'esm' })).rejects.toThrow(
      /Top-level return cannot be used inside an ECMAScript module/,
    );
  });

  it.each(examples)('%s parses as an ES module', async (_where, block) => {
    const loader = block.lang.startsWith('t') ? 'ts' : 'js';
    await expect(transform(block.code, { loader, format: 'esm' })).resolves.toBeDefined();
  });
});
