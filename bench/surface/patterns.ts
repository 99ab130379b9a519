/**
 * Field patterns against hostile answers (issue 11, item 1): the worst pattern we can find × a
 * 4,000-character answer × 24 fields, time per submit (target ≤ 5 ms), and /healthz answered
 * while such submits run (not delayed).
 *
 * 1. Search: families of patterns known to be costly for backtracking engines or for automata
 *    (nested and adjacent repeats, alternations, counted repeats up to the program bound, Unicode
 *    classes), each against several 4,000-character answers; the slowest (pattern, answer) pairs
 *    are timed as a whole validateAnswer of 24 such fields. Anchor: the same submit with a
 *    typical pattern (`^[A-Za-z ]+$`).
 * 2. The real server (PGlite in a temp dir): 24-field forms with the worst pattern, answered by
 *    HTTP form posts of 24 × 4,000 characters (each refused for one unknown field, after every
 *    field was checked), while a second client polls /healthz. Anchors: the same posts to forms
 *    without the pattern (with /healthz polled the same way), and /healthz alone.
 *
 * Run: node --import tsx bench/surface/patterns.ts [--rounds N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, newId, newSecret } from '@sess/core';
import { workspaces } from '@sess/db';
import { createFormsRuntime, createSession } from '@sess/forms';
import { loadConfig, startServer } from '@sess/server';
import { LIMITS, parseSurface, STRUCTURE_LIMITS, type Surface, validateAnswer } from '@sess/surface';
import { checkPattern } from '../../packages/host-free/surface/src/pattern.ts';
import { findForm } from '../../packages/testkit/src/index.ts';
import { quantile } from '../support/stats.ts';

const argv = process.argv.slice(2);
const roundsFlag = argv.indexOf('--rounds');
const ROUNDS = roundsFlag === -1 ? 5 : Number(argv[roundsFlag + 1]);
const FIELDS = STRUCTURE_LIMITS.fields;
const LENGTH = LIMITS.text;
const TARGET_MS = 5;

// Families, each at every count that keeps it within the program bound.
const FAMILIES: Array<(k: number) => string> = [
  (k) => `${'a*'.repeat(Math.min(k, 60))}c`,
  (k) => `${'\\s*'.repeat(Math.min(k, 40))}x`,
  (k) => `(?:a?){${k}}a{${k}}`,
  (k) => `\\p{L}{${k}}`,
  (k) => `(?:\\p{L}|\\d){${k}}$`,
  (k) => `[\\s\\S]{${k}}$`,
  (k) => `.{${k}}x`,
  (k) => `(a|b)*a[ab]{${k}}$`,
  (k) => `[ab ]*a[ab ]{${k}}b`,
  (k) => `(?:.*a){${Math.min(k, 20)}}$`,
  (k) => `(?:\\w|\\s)*\\s\\w{${k}}$`,
  (k) => `(?:[a-z]{0,${k}}){3}$`,
  (k) => `^(?:\\w+\\s?){1,${k}}$`,
  (k) => `^(a+)+${'b'.repeat(Math.min(k, 20))}$`,
  (k) => `(?:${Array.from({ length: Math.min(k, 25) }, (_, i) => 'a'.repeat((i % 6) + 1)).join('|')})*$`,
  (k) => `(?:(?:a?){${Math.ceil(Math.sqrt(k))}}){${Math.ceil(Math.sqrt(k))}}b`,
  (k) => `^(?:x+x+)+y{${Math.min(k, 100)}}$`,
];
const COUNTS = [3, 5, 8, 12, 16, 20, 25, 30, 35, 40, 45, 50, 55, 58];

function repeatTo(unit: string, length: number): string {
  let out = '';
  const chars = Array.from(unit);
  for (let i = 0; out.length < length; i++) out += chars[i % chars.length];
  return Array.from(out).slice(0, length).join('');
}

/** `length` code points drawn from `alphabet` by a seeded generator: a new DFA state at nearly every step. */
function randomOf(alphabet: string, length: number, seed: number): string {
  const chars = Array.from(alphabet);
  let state = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += chars[state % chars.length];
  }
  return out;
}

// Answers of exactly 4,000 code points, the kinds that keep automata busy; each field of a submit
// gets its own (the random ones differ per field, so one field's DFA states do not serve the next).
const ANSWERS: Record<string, (field: number) => string> = {
  'a…': () => repeatTo('a', LENGTH),
  'random ab': (field) => randomOf('ab', LENGTH, 7919 * (field + 1)),
  'random ab ': (field) => randomOf('ab ', LENGTH, 104729 * (field + 1)),
  'spaces…': () => repeatTo(' ', LENGTH),
  'words…': () => repeatTo('lorem ipsum ', LENGTH),
  letters: (field) => randomOf('aßçdéfğhıjklmñöpqrśtüvwxyzабвгдеж中文字0123456789', LENGTH, 31 * (field + 1)),
  'a…!': () => `${repeatTo('a', LENGTH - 1)}!`,
};

function surfaceOf(pattern: string | undefined): Surface {
  const components = Array.from({ length: FIELDS }, (_, i) => ({
    type: 'field' as const,
    name: `f${i}`,
    label: `Field ${i}`,
    required: false,
    schema: { type: 'string' as const, maxLength: LENGTH, ...(pattern ? { pattern } : {}) },
  }));
  return parseSurface({ mode: 'interactive', title: 'Patterns', source: { kind: 'sess_surface', components } }, '/interaction');
}

function valuesOf(answer: (field: number) => string, round: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: FIELDS }, (_, i) => [`f${i}`, answer(i + FIELDS * round)]));
}

function submitTimes(surface: Surface, answer: (field: number) => string, rounds: number): number[] {
  validateAnswer(surface, { values: valuesOf(answer, 0) }); // warm: compiled once, as the server's cache keeps it
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const values = valuesOf(answer, r + 1);
    const start = performance.now();
    validateAnswer(surface, { values });
    times.push(performance.now() - start);
  }
  return times;
}

const fmt = (ms: number) => ms.toFixed(2);
const summary = (times: number[]) =>
  `min ${fmt(Math.min(...times))} / median ${fmt(quantile(times, 0.5))} / max ${fmt(Math.max(...times))} ms`;

console.log(
  `node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${FIELDS} fields × ${LENGTH} characters per submit; program bound ${STRUCTURE_LIMITS.patternProgram}`,
);

// 1. The search.
const candidates: Array<{ pattern: string; answer: string; ms: number }> = [];
for (const family of FAMILIES) {
  for (const count of COUNTS) {
    const pattern = family(count);
    if (checkPattern(pattern)) continue; // refused at create: never runs
    const surface = surfaceOf(pattern);
    for (const [answerName, answer] of Object.entries(ANSWERS)) {
      const times = submitTimes(surface, answer, 2);
      candidates.push({ pattern, answer: answerName, ms: Math.min(...times) });
    }
  }
}
candidates.sort((a, b) => b.ms - a.ms);
console.log(
  `\nsearch: ${candidates.length} accepted (pattern, answer) pairs; the slowest, timed again (${ROUNDS * 4} submits each):`,
);
const worst = candidates
  .slice(0, 5)
  .map((c) => ({ ...c, times: submitTimes(surfaceOf(c.pattern), ANSWERS[c.answer]!, ROUNDS * 4) }));
worst.sort((a, b) => quantile(b.times, 0.5) - quantile(a.times, 0.5));
for (const w of worst) console.log(`  ${JSON.stringify(w.pattern).padEnd(44)} × ${w.answer.padEnd(9)} ${summary(w.times)}`);
const anchor = submitTimes(surfaceOf('^[A-Za-z ]+$'), ANSWERS['words…']!, ROUNDS * 4);
console.log(`  anchor: typical pattern "^[A-Za-z ]+$" × words… ${summary(anchor)}`);
const top = worst[0]!;
const topMedian = quantile(top.times, 0.5);
console.log(
  `worst submit (validateAnswer): median ${fmt(topMedian)} ms (${(topMedian / quantile(anchor, 0.5)).toFixed(1)}× the anchor); target ≤ ${TARGET_MS} ms: ${topMedian <= TARGET_MS ? 'met' : 'NOT MET'}`,
);

// 2. The real server: posts of the worst pattern's answers while /healthz is polled.
const dataDir = mkdtempSync(join(tmpdir(), 'sess-bench-patterns-'));
const secret = newSecret(32);
const config = loadConfig({
  NODE_ENV: 'production',
  // A production server over http needs a push contact address (notifications stay on; no device, nothing sent).
  SESS_VAPID_SUBJECT: 'mailto:bench@sess.dev',
  PORT: '0',
  LOG_LEVEL: 'warn',
  SESS_SECRET: secret,
  SESS_DATA_DIR: dataDir,
});
const logger = createLogger({ level: 'warn' });
const server = await startServer(config, { logger });
const runtime = createFormsRuntime({ database: server.database, publicUrl: config.publicUrl, secret, logger });
try {
  const workspaceId = newId('workspace');
  await server.database.db.insert(workspaces).values({ id: workspaceId, name: 'bench', plan: 'enterprise' });

  async function prepare(pattern: string | undefined, count: number): Promise<Array<{ url: URL; body: string }>> {
    const interaction = surfaceOf(pattern);
    const posts: Array<{ url: URL; body: string }> = [];
    for (let i = 0; i < count; i++) {
      const created = await createSession({ ctx: { runtime, workspaceId }, input: { interaction, expires_in: 3600 } });
      // The links name PUBLIC_URL (port 0 here); the page is served at the listener's address.
      const url = new URL(new URL(created.humanUrl).pathname, server.url);
      const form = findForm(await (await fetch(url)).text(), url.pathname);
      const body = new URLSearchParams(form.fields);
      for (const [name, value] of Object.entries(valuesOf(ANSWERS[top.answer]!, i + 1))) body.set(name, value);
      // One field the form does not have: every post is refused (422) after all 24 fields were
      // checked, so posts with and without the pattern do the same work but for the pattern.
      body.set('not_a_field', 'x');
      posts.push({ url, body: body.toString() });
    }
    return posts;
  }

  async function post(target: { url: URL; body: string }): Promise<number> {
    const start = performance.now();
    const response = await fetch(target.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: target.url.origin },
      body: target.body,
    });
    await response.arrayBuffer();
    if (response.status !== 422) throw new Error(`answer post answered ${response.status}, not 422`);
    return performance.now() - start;
  }

  /** Polls /healthz back to back until `stop` resolves; returns each latency. */
  async function pollHealth(stop: Promise<unknown>): Promise<number[]> {
    const latencies: number[] = [];
    let done = false;
    void stop.then(() => {
      done = true;
    });
    while (!done) {
      const start = performance.now();
      const response = await fetch(`${server.url}/healthz`);
      await response.arrayBuffer();
      latencies.push(performance.now() - start);
    }
    return latencies;
  }

  const perRun = ROUNDS * 4;
  await Promise.all((await prepare(top.pattern, 5)).map(post)); // warm-up: JIT, statements, the pattern cache
  const idle = await pollHealth(new Promise((resolve) => setTimeout(resolve, 2_000)));
  /** The posts one after another while /healthz is polled; returns both sets of times. */
  async function postWhilePolling(targets: Array<{ url: URL; body: string }>) {
    const times: number[] = [];
    const posting = (async () => {
      for (const target of targets) times.push(await post(target));
    })();
    const health = await pollHealth(posting);
    await posting;
    return { times, health };
  }
  const plain = await postWhilePolling(await prepare(undefined, perRun));
  const hostile = await postWhilePolling(await prepare(top.pattern, perRun));

  console.log(`\nreal server (PGlite), ${perRun} refused posts each of ${FIELDS} × ${LENGTH} characters, one at a time:`);
  console.log(`  answer post, worst pattern:             ${summary(hostile.times)}`);
  console.log(`  anchor, the same post with no pattern:  ${summary(plain.times)}`);
  const line = (name: string, samples: number[]) =>
    `  ${name}: ${samples.length} requests, p50 ${fmt(quantile(samples, 0.5))} ms, p99 ${fmt(quantile(samples, 0.99))} ms, max ${fmt(Math.max(...samples))} ms`;
  console.log(line('/healthz during the worst-pattern posts', hostile.health));
  console.log(line('anchor, /healthz during the posts with no pattern', plain.health));
  console.log(line('anchor, /healthz alone', idle));
} finally {
  await runtime.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
