/**
 * The answer page's weight and render time in each language (issue 40: the added weight per
 * language, compressed, and the server render time within 10 % of before). In process, no HTTP:
 * `renderAnswerPage` of an open form with every field type, as the face renders it.
 *
 * Anchor, measured in the same run: a fixed hono/jsx tree of about the same size made of no Sess
 * component, so a ratio can be compared across runs, machines and revisions (run this same file
 * from a checkout of the revision before, in the same sitting, to get "before").
 *
 * Run: node --import tsx bench/answer-page/languages.ts [--rounds N]
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { jsx } from 'hono/jsx';
import { everyFieldSurface, openView } from '../../packages/service/web/src/answer/fixtures.ts';
import * as web from '../../packages/service/web/src/index.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const roundsFlag = argv.indexOf('--rounds');
const ROUNDS = roundsFlag === -1 ? 9 : Number(argv[roundsFlag + 1]);
const RENDERS = 2_000;
const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';

const now = new Date('2026-12-07T10:00:00Z');
const view = openView(everyFieldSurface(), {
  now,
  expiresAt: new Date(now.getTime() + 3_600_000),
  link: 'https://sess.example/s/abc',
});

/** This revision's languages and how to render in one; a revision before issue 40 renders English only. */
type Speak = <T>(tag: string, render: () => T) => T;
const i18n = web as unknown as {
  shippedLanguages?: () => readonly { tag: string }[];
  messagesFor?: (tag: string, options: object) => unknown;
  inLanguage?: <T>(messages: unknown, render: () => T) => T;
};
const tags = i18n.shippedLanguages ? i18n.shippedLanguages().map((language) => language.tag) : ['en'];
const speak: Speak = (tag, render) =>
  i18n.inLanguage && i18n.messagesFor
    ? i18n.inLanguage(
        i18n.messagesFor(tag, { timeZone: 'Europe/Ljubljana', languageHref: (t: string) => `/s/abc?lang=${t}` }),
        render,
      )
    : render();

const page = (tag: string) => speak(tag, () => web.renderAnswerPage(view, NONCE));

/** The anchor: about as many elements and as much text as the page, none of them Sess's. */
function anchor(): string {
  const items = Array.from({ length: 60 }, (_, i) =>
    jsx('li', { class: 'item', 'data-i': String(i) }, jsx('a', { href: `/x/${i}` }, `Item ${i} with some words`)),
  );
  return `<!doctype html>${jsx('html', { lang: 'en' }, jsx('body', {}, jsx('ul', {}, ...items)))}`;
}

/** Microseconds per call of `render` over RENDERS calls. */
function batch(render: () => string): number {
  const start = performance.now();
  for (let i = 0; i < RENDERS; i += 1) render();
  return ((performance.now() - start) * 1000) / RENDERS;
}

/** Per round: the page's time, the anchor's just before it, and their ratio (the load moves both). */
function time(render: () => string): { page: number[]; anchor: number[]; ratio: number[] } {
  const out = { page: [] as number[], anchor: [] as number[], ratio: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    const a = batch(anchor);
    const p = batch(render);
    out.anchor.push(a);
    out.page.push(p);
    out.ratio.push(p / a);
  }
  return out;
}

const fmt = (samples: number[], digits = 1, unit = ' µs') =>
  `${[0, 0.5, 1].map((q) => quantile(samples, q).toFixed(digits)).join(' / ')}${unit}`;

process.stdout.write(
  `Answer page (open form, every field type): weight and render time by language; ${ROUNDS} rounds of ${RENDERS} renders\n`,
);
process.stdout.write(
  `load average: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}\n`,
);
// Warm up every path once (compiled messages, JIT) before any round is timed.
for (const tag of tags) for (let i = 0; i < 200; i += 1) page(tag);
for (let i = 0; i < 200; i += 1) anchor();

const english = Buffer.byteLength(page('en'));
const englishGzip = gzipSync(page('en')).length;
for (const tag of tags) {
  const html = page(tag);
  const bytes = Buffer.byteLength(html);
  const gzip = gzipSync(html).length;
  const brotli = brotliCompressSync(html).length;
  const timed = time(() => page(tag));
  process.stdout.write(
    `${tag}: ${bytes} B (${bytes - english >= 0 ? '+' : ''}${bytes - english} vs en), gzip ${gzip} B (${gzip - englishGzip >= 0 ? '+' : ''}${gzip - englishGzip}), br ${brotli} B; render min/median/max ${fmt(timed.page)}; anchor ${fmt(timed.anchor)}; page ÷ anchor ${fmt(timed.ratio, 2, '')}\n`,
  );
}
