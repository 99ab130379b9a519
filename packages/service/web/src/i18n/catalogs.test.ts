/*
 * The catalogs are complete and consistent: every language has every English key and no other,
 * each message parses as ICU and uses the same placeholders (and plural/select arguments) as the
 * English one, and every key is used somewhere in Sess's source.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { FORM_WORDS } from '@sess/surface';
import { describe, expect, it } from 'vitest';
import { en } from './catalogs/en/index.ts';
import { shippedLanguages } from './languages.ts';

const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The placeholder names a message uses, with their kind (`count:plural`, `name:argument`, `b:tag`). */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      switch (element.type) {
        case TYPE.argument:
        case TYPE.number:
        case TYPE.date:
        case TYPE.time:
          found.add(`${element.value}:value`);
          break;
        case TYPE.plural:
        case TYPE.select:
          found.add(`${element.value}:${element.type === TYPE.plural ? 'plural' : 'select'}`);
          for (const option of Object.values(element.options)) walk(option.value);
          break;
        case TYPE.tag:
          found.add(`${element.value}:tag`);
          walk(element.children);
          break;
      }
    }
  };
  walk(parse(message));
  return [...found].sort();
}

/** Every source file Sess's pages, notices and e-mails are built from (catalogs and tests left out). */
function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'catalogs' || name === 'test') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const languages = shippedLanguages();
const englishKeys = Object.keys(en).sort();

describe('message catalogs', () => {
  it('ships English, German, Slovenian, Spanish and French', () => {
    expect(languages.map((language) => language.tag)).toEqual(['en', 'de', 'sl', 'es', 'fr']);
  });

  for (const language of languages) {
    it(`${language.tag}: has exactly the English keys`, () => {
      expect(Object.keys(language.catalog).sort()).toEqual(englishKeys);
    });

    it(`${language.tag}: every message parses and has the English message's placeholders`, () => {
      const differing: string[] = [];
      for (const key of englishKeys) {
        const message = (language.catalog as Record<string, string>)[key] ?? '';
        expect(message.trim(), `${language.tag} ${key} is empty`).not.toBe('');
        const mine = placeholders(message).join(' ');
        const english = placeholders((en as Record<string, string>)[key] ?? '').join(' ');
        if (mine !== english) differing.push(`${key}: ${mine} ≠ ${english}`);
      }
      expect(differing).toEqual([]);
    });
  }

  it('every key is used in the source', () => {
    const roots = ['packages/service', 'packages/host-free', 'apps/server/src'].map((dir) => join(REPO, dir));
    const text = roots
      .flatMap((root) => sourceFiles(root))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const unused = englishKeys.filter((key) => !text.includes(`'${key}'`) && !text.includes(`"${key}"`));
    expect(unused, `unused keys (or built from parts: name them in full) in ${relative(REPO, roots[0] ?? '')}…`).toEqual([]);
  });
});

describe("the words Sess writes into a form (@sess/surface's FORM_WORDS)", () => {
  const english = FORM_WORDS.en ?? {};
  const keys = Object.keys(english).sort();
  it('are written in every shipped language', () => {
    expect(Object.keys(FORM_WORDS).sort()).toEqual(languages.map((language) => language.tag).sort());
  });
  for (const [tag, words] of Object.entries(FORM_WORDS)) {
    it(`${tag}: has exactly the English keys, each with the English placeholders`, () => {
      expect(Object.keys(words).sort()).toEqual(keys);
      const differing = keys.filter(
        (key) =>
          placeholders((words as Record<string, string>)[key] ?? '').join(' ') !==
          placeholders((english as Record<string, string>)[key] ?? '').join(' '),
      );
      expect(differing).toEqual([]);
    });
  }
});
